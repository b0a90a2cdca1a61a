/**
 * Standard Webhooks signing (docs/webhooks.md): `webhook-signature` is `v1,<base64 HMAC-SHA256 of
 * "{id}.{timestamp}.{body}">` keyed with the bytes of the `whsec_` secret; several space-separated
 * signatures while a rotated secret is still honoured.
 */
import { createHmac, randomBytes } from 'node:crypto';

const prefix = 'whsec_';

/** A new secret: `whsec_` and the base64 of 32 random bytes. */
export const newSecret = (): string => `${prefix}${randomBytes(32).toString('base64')}`;

const keyOf = (secret: string) =>
  Buffer.from(secret.startsWith(prefix) ? secret.slice(prefix.length) : secret, 'base64');

export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The three Standard Webhooks headers, one signature per secret. */
export function signedHeaders(secrets: string[], id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signature(s, id, timestamp, body)).join(' '),
  };
}
