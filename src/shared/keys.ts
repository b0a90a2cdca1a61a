/**
 * Secret keys: from the environment, or (outside production) generated once and kept under
 * DATA_DIR so tokens and encrypted data survive a restart.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
