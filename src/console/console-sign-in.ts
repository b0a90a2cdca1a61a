/**
 * Checks an e-mail and password for the console, throttled before any password is hashed: at most
 * `perEmail` attempts per e-mail and `perAddress` per client address in any `windowMs` (a sliding
 * window, shared between instances through Redis when REDIS_URL is set). A successful attempt is given
 * back, so only failures count. Every failure looks the same to the caller.
 */
import { createHash } from 'node:crypto';
import type { SlidingWindowLimiter } from '../http/index.ts';
import { type OperatorAccounts, hashPassword, passwordMatches } from '../operators/index.ts';
import type { Role } from '../shared/index.ts';

export type SignInResult =
  | { outcome: 'signed-in'; operator: { operatorId: string; name: string; role: Role } }
  | { outcome: 'refused' }
  | { outcome: 'throttled'; retryAfterSeconds: number };

export const signInLimits = { perEmail: 10, perAddress: 50, windowMs: 15 * 60 * 1000 };

// An unknown e-mail costs the same scrypt work as a wrong password, so timing does not tell them apart.
const decoyHash = hashPassword('not a password of anyone');

const keyOf = (kind: string, value: string) =>
  `console-sign-in:${kind}:${createHash('sha256').update(value).digest('base64url')}`;

export function createConsoleSignIn(deps: {
  operators: Pick<OperatorAccounts, 'byEmail'>;
  attempts: SlidingWindowLimiter;
  limits?: typeof signInLimits;
}) {
  const limits = deps.limits ?? signInLimits;
  return async function signIn(email: string, password: string, clientAddress: string): Promise<SignInResult> {
    const emailKey = keyOf('email', email.trim().toLowerCase());
    const addressKey = keyOf('address', clientAddress);
    const [emailAttempt, addressAttempt] = await Promise.all([
      deps.attempts.attempt(emailKey, limits.perEmail, limits.windowMs),
      deps.attempts.attempt(addressKey, limits.perAddress, limits.windowMs),
    ]);
    const [byEmail, byAddress] = [emailAttempt.decision, addressAttempt.decision];
    if (!byEmail.allowed || !byAddress.allowed) {
      const resetMs = Math.max(byEmail.allowed ? 0 : byEmail.resetMs, byAddress.allowed ? 0 : byAddress.resetMs);
      return { outcome: 'throttled', retryAfterSeconds: Math.max(1, Math.ceil(resetMs / 1000)) };
    }
    const plausible = email.length <= 320 && password.length <= 1024;
    const operator = plausible ? await deps.operators.byEmail(email.trim()) : undefined;
    const matches = await passwordMatches(password, operator?.password_hash ?? (await decoyHash));
    if (!operator?.password_hash || !matches) return { outcome: 'refused' };
    await Promise.all([
      deps.attempts.release(emailKey, emailAttempt.id),
      deps.attempts.release(addressKey, addressAttempt.id),
    ]);
    return { outcome: 'signed-in', operator: { operatorId: operator.id, name: operator.name, role: operator.role } };
  };
}

export type ConsoleSignIn = ReturnType<typeof createConsoleSignIn>;
