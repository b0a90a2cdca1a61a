/**
 * Console sessions (docs/console.md): a random 256-bit token in an HttpOnly cookie, its SHA-256 hash in
 * the database. A session lasts at most `maxAgeMs` and ends after `idleMs` without a request; "last
 * seen" is written at most once a minute, not on every page.
 */
import { hashSecret, type Clock, randomToken } from '../shared/index.ts';
import type { ConsoleSessionsRepository, SessionOperator } from './console-sessions.repository.ts';

export const sessionIdleMs = 60 * 60 * 1000;
export const sessionMaxAgeMs = 12 * 60 * 60 * 1000;
const touchEveryMs = 60 * 1000;

export function createConsoleSessions(deps: {
  repository: ConsoleSessionsRepository;
  clock: Clock;
  idleMs?: number;
  maxAgeMs?: number;
}) {
  const idleMs = deps.idleMs ?? sessionIdleMs;
  const maxAgeMs = deps.maxAgeMs ?? sessionMaxAgeMs;
  return {
    maxAgeMs,

    /** A new session for the operator; the token goes to the cookie and is not kept. */
    async start(operatorId: string): Promise<string> {
      const token = randomToken(32);
      const at = deps.clock.now();
      await deps.repository.insert({
        tokenHash: hashSecret(token),
        operatorId,
        at,
        expiresAt: new Date(at.getTime() + maxAgeMs),
      });
      return token;
    },

    /** The operator of a live session, or undefined (unknown, ended, expired, idle, operator deleted). */
    async resolve(token: string | undefined): Promise<SessionOperator | undefined> {
      if (!token || token.length > 128) return undefined;
      const now = deps.clock.now();
      const tokenHash = hashSecret(token);
      const found = await deps.repository.find(tokenHash, now, new Date(now.getTime() - idleMs));
      const due = found && now.getTime() - found.lastSeenAt.getTime() >= touchEveryMs;
      if (due) await deps.repository.touch(tokenHash, now);
      return found;
    },

    async end(token: string | undefined): Promise<void> {
      if (token && token.length <= 128) await deps.repository.remove(hashSecret(token));
    },

    /** Signs the operator out everywhere; how many sessions ended. */
    endAllOf: (operatorId: string) => deps.repository.removeAllOf(operatorId),

    purgeDead() {
      const now = deps.clock.now();
      return deps.repository.removeDead(now, new Date(now.getTime() - idleMs));
    },
  };
}

export type ConsoleSessions = ReturnType<typeof createConsoleSessions>;
