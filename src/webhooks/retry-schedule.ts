/**
 * When a failed delivery is tried again: immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h and 10 h; after the eighth failed attempt the delivery is `failed`.
 */
const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

/** The wait after attempt n (1-based) failed. */
export const retryDelaysMs = [5 * second, 5 * minute, 30 * minute, 2 * hour, 5 * hour, 10 * hour, 10 * hour] as const;
export const maxAttempts = retryDelaysMs.length + 1;

/** An endpoint whose every attempt failed for this long is disabled. */
export const disableAfterFailingMs = 5 * 24 * hour;

/** The time of the next attempt after `attempts` failed ones, or undefined when none is left. */
export function nextAttemptAt(attempts: number, failedAt: Date): Date | undefined {
  const delay = retryDelaysMs[attempts - 1];
  return delay === undefined ? undefined : new Date(failedAt.getTime() + delay);
}
