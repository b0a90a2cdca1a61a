/**
 * The console module as the composition root uses it: the operator console (docs/console.md), its
 * sessions and sign-in, and the purge of sessions that can no longer be used.
 */
import type { Queryable } from '../db/index.ts';
import type { SlidingWindowLimiter } from '../http/index.ts';
import { repeatingJob } from '../jobs/index.ts';
import type { OperatorAccounts } from '../operators/index.ts';
import type { Clock } from '../shared/index.ts';
import { createConsoleSessionsRepository } from './console-sessions.repository.ts';
import { createConsoleSessions } from './console-sessions.ts';
import { createConsoleSignIn } from './console-sign-in.ts';
import { consolePlugin, type ConsoleDeps } from './console.plugin.ts';

export interface ConsoleModuleDeps {
  db: Queryable;
  clock: Clock;
  /** The operators' accounts people sign in with. */
  operators: Pick<OperatorAccounts, 'byEmail'>;
  /** Where sign-in attempts are counted (sliding windows, through Redis when set). */
  attempts: SlidingWindowLimiter;
  csrfKey: Buffer;
  /** When the purge of dead sessions runs. */
  purgeSchedule: { firstMs: number; everyMs: number };
  warn: (message: string, error?: unknown) => void;
  /** What the pages show and change: the other modules' services. */
  pages: Omit<ConsoleDeps, 'sessions' | 'signIn' | 'csrfKey'>;
}

export function createConsoleModule(deps: ConsoleModuleDeps) {
  const sessions = createConsoleSessions({ repository: createConsoleSessionsRepository(deps.db), clock: deps.clock });
  const signIn = createConsoleSignIn({ operators: deps.operators, attempts: deps.attempts });
  return {
    sessions,
    /** The console's pages, served under /console (app.ts). */
    plugin: consolePlugin({ ...deps.pages, sessions, signIn, csrfKey: deps.csrfKey }),
    // Console sessions that can no longer be used are forgotten.
    jobs: [
      repeatingJob('console session purge', deps.purgeSchedule, () =>
        sessions.purgeDead().catch((e) => deps.warn('console session purge failed', e)),
      ),
    ],
  };
}

export type ConsoleModule = ReturnType<typeof createConsoleModule>;
