/**
 * Authenticated encryption of personal data at rest (AES-256-GCM). The associated data binds a
 * ciphertext to its record and field, so a value copied into another lead or column never decrypts.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const version = 'v1';

export interface FieldEncryption {
  encrypt(value: unknown, context: string): string;
  decrypt<T>(sealed: string, context: string): T;
}

export function createFieldEncryption(key: Buffer): FieldEncryption {
  if (key.length !== 32) throw new Error('the data encryption key must be 32 bytes');
  return {
    encrypt(value, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return [version, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
    },
    decrypt<T>(sealed: string, context: string): T {
      const [v, iv, tag, body] = sealed.split('.');
      if (v !== version || !iv || !tag || body === undefined) throw new Error('unknown ciphertext format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
      return JSON.parse(text) as T;
    },
  };
}
