/**
 * Authenticated encryption of personal data at rest (AES-256-GCM). The associated data binds a
 * ciphertext to its record and field, so a value copied into another lead or column never decrypts.
 *
 * Stored form: `v2.<keyId>.<iv>.<tag>.<body>`, the key id naming the key that sealed it (see keyIdOf),
 * so a value is opened with that key, and a start can tell which keys the stored values need. Values
 * sealed before key ids were recorded read `v1.<iv>.<tag>.<body>`: they are opened by trying each
 * configured key (the GCM tag tells the right one), and labelled with their key's id (see label).
 */
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomFillSync } from 'node:crypto';
import { keyIdOf } from './keys.ts';

const labelled = 'v2';
const unlabelled = 'v1';

/** A stored value names a key that is neither the current nor a previous one. */
export class MissingKeyError extends Error {
  constructor(readonly keyId: string) {
    super(`no configured data encryption key has the id ${keyId}`);
  }
}

export interface FieldEncryption {
  /** Seals a value with the current key. */
  encrypt(value: unknown, context: string): string;
  /** Opens a value sealed with the current or a previous key. */
  decrypt<T>(sealed: string, context: string): T;
  readonly currentKeyId: string;
  readonly previousKeyIds: readonly string[];
  /** `v2.<currentKeyId>.`: every value sealed with the current key starts with it. */
  readonly currentPrefix: string;
  /** The id of the key a stored value names; undefined for a value sealed before ids were recorded. */
  keyIdOf(sealed: string): string | undefined;
  /**
   * A value sealed before ids were recorded, with the id of the configured key that opens it written in
   * (the ciphertext itself unchanged); undefined when no configured key opens it.
   */
  label(sealed: string, context: string): string | undefined;
}

interface Parts {
  keyId: string | undefined;
  iv: string;
  tag: string;
  body: string;
}

function parse(sealed: string): Parts {
  const fields = sealed.split('.');
  if (fields[0] === labelled && fields.length === 5 && fields[1]) {
    return { keyId: fields[1], iv: fields[2]!, tag: fields[3]!, body: fields[4]! };
  }
  if (fields[0] === unlabelled && fields.length === 4) {
    return { keyId: undefined, iv: fields[1]!, tag: fields[2]!, body: fields[3]! };
  }
  throw new Error('unknown ciphertext format');
}

/**
 * Random IVs, 12 bytes each, drawn from the operating system's secure source 4 KiB at a time: one call
 * for every 341 values sealed instead of one each. Every IV is used once; a new block replaces a spent one.
 */
function ivSource(): () => Buffer {
  const ivBytes = 12;
  let block = Buffer.alloc(0);
  let next = 0;
  return () => {
    if (next + ivBytes > block.length) {
      block = randomFillSync(Buffer.allocUnsafe(ivBytes * 341));
      next = 0;
    }
    next += ivBytes;
    return block.subarray(next - ivBytes, next);
  };
}

function open(key: KeyObject, parts: Parts, context: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(parts.iv, 'base64'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(parts.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(parts.body, 'base64')), decipher.final()]).toString('utf8');
}

/** `current` seals; `current` and every `previous` key open. */
export function createFieldEncryption(current: Buffer, previous: readonly Buffer[] = []): FieldEncryption {
  for (const key of [current, ...previous]) {
    if (key.length !== 32) throw new Error('a data encryption key must be 32 bytes');
  }
  const currentKeyId = keyIdOf(current);
  // Key objects made once: from raw bytes, each cipher would make one (on Node 24, most of its cost).
  const sealingKey = createSecretKey(current);
  const keys = new Map<string, KeyObject>([[currentKeyId, sealingKey]]);
  for (const key of previous) if (!keys.has(keyIdOf(key))) keys.set(keyIdOf(key), createSecretKey(key));
  const nextIv = ivSource();
  const previousKeyIds = [...keys.keys()].filter((id) => id !== currentKeyId);

  /** The configured key that opens an unlabelled value, current first. */
  function identify(parts: Parts, context: string): { keyId: string; text: string } | undefined {
    for (const [keyId, key] of keys) {
      try {
        return { keyId, text: open(key, parts, context) };
      } catch {
        // Not this key (the tag does not match): try the next one.
      }
    }
    return undefined;
  }

  return {
    currentKeyId,
    previousKeyIds,
    currentPrefix: `${labelled}.${currentKeyId}.`,
    encrypt(value, context) {
      const iv = nextIv();
      const cipher = createCipheriv('aes-256-gcm', sealingKey, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag().toString('base64');
      return [labelled, currentKeyId, iv.toString('base64'), tag, body.toString('base64')].join('.');
    },
    decrypt<T>(sealed: string, context: string): T {
      const parts = parse(sealed);
      if (parts.keyId === undefined) {
        const found = identify(parts, context);
        if (!found) throw new Error('no configured data encryption key opens this value');
        return JSON.parse(found.text) as T;
      }
      const key = keys.get(parts.keyId);
      if (!key) throw new MissingKeyError(parts.keyId);
      return JSON.parse(open(key, parts, context)) as T;
    },
    keyIdOf: (sealed) => parse(sealed).keyId,
    label(sealed, context) {
      const parts = parse(sealed);
      if (parts.keyId !== undefined) return sealed;
      const found = identify(parts, context);
      return found && [labelled, found.keyId, parts.iv, parts.tag, parts.body].join('.');
    },
  };
}
