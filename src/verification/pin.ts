/**
 * PIN rules (docs/api.md, "PIN"), pure: random digits, kept only as a keyed hash, valid for
 * `pinValidityMs`, void after `maxFailedAttempts` wrong confirmations; at most `maxSendsPerWindow`
 * sends per lead in any `sendWindowMs`.
 */
import { createHmac, type KeyObject, randomInt, timingSafeEqual } from 'node:crypto';

export const pinValidityMs = 10 * 60 * 1000;
export const maxFailedAttempts = 5;
export const maxSendsPerWindow = 5;
export const sendWindowMs = 10 * 60 * 1000;

/** From the operating system's secure random source. */
export const generatePin = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Keyed with a server secret and the lead id: a database dump alone cannot test the 10^6 PINs. */
export function hashPin(key: KeyObject, leadId: string, pin: string): string {
  return createHmac('sha256', key).update(`pin:${leadId}:${pin}`).digest('base64url');
}

export interface PendingPin {
  pinHash: string;
  expiresAt: Date;
  failedAttempts: number;
  verifiedAt: Date | null;
}

export const pinRejections = ['NO_PIN_PENDING', 'PIN_EXPIRED', 'PIN_VOID', 'PIN_MISMATCH'] as const;
export type PinRejection = (typeof pinRejections)[number];

export type PinCheck = { ok: true } | { ok: false; reason: PinRejection; countsAsTry: boolean };

/**
 * A PIN already confirmed stays good for retrying the same confirmation after a bureau failure,
 * whatever its age: the person has already proven they hold it. Wrong tries then neither count nor
 * void it: a verified lead gets no new PIN, so a void one would leave it VERIFIED for good with no
 * way to obtain its report (docs/api.md, "412: third-party failures"), and guessing it only repeats a consented query.
 */
export function checkPin(pending: PendingPin | undefined, givenHash: string, now: Date): PinCheck {
  if (!pending) return { ok: false, reason: 'NO_PIN_PENDING', countsAsTry: false };
  const matches = safeEqual(pending.pinHash, givenHash);
  if (pending.verifiedAt) return matches ? { ok: true } : { ok: false, reason: 'PIN_MISMATCH', countsAsTry: false };
  if (pending.failedAttempts >= maxFailedAttempts) return { ok: false, reason: 'PIN_VOID', countsAsTry: false };
  if (pending.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'PIN_EXPIRED', countsAsTry: false };
  return matches ? { ok: true } : { ok: false, reason: 'PIN_MISMATCH', countsAsTry: true };
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Seconds until a send is possible again, or 0 when one is allowed now. */
export function sendThrottle(sendTimes: Date[], now: Date): number {
  const windowStart = now.getTime() - sendWindowMs;
  const recent = sendTimes
    .map((d) => d.getTime())
    .filter((t) => t > windowStart)
    .sort((a, b) => a - b);
  if (recent.length < maxSendsPerWindow) return 0;
  const frees = recent[recent.length - maxSendsPerWindow] + sendWindowMs;
  return Math.max(1, Math.ceil((frees - now.getTime()) / 1000));
}

/** Mexican mobile numbers are sent as E.164 with the +52 country code. */
export const toE164 = (phone: string): string => `+52${phone}`;
