/**
 * Secret keys: from the environment, or (outside production) generated once and kept under
 * DATA_DIR so tokens and encrypted data survive a restart.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A key's public name: the first 16 lowercase hex digits of the SHA-256 of its 32 bytes (not of their
 * base64 or hex text), the same whichever way the key is written. Stored values and tokens carry it.
 */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

export function loadOrCreateKey(dataDir: string, name: string, given: Buffer | undefined): Buffer {
  if (given) return given;
  const dir = join(dataDir, 'keys');
  const file = join(dir, `${name}.key`);
  try {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length === 32) return key;
    throw new Error(`The key file ${file} does not hold 32 bytes`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  try {
    writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    // Another instance wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateKey(dataDir, name, undefined);
    throw error;
  }
}
