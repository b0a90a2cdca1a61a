/**
 * Warnings that may repeat many times a second (Redis down: every reconnection attempt fails) are
 * written at most once per interval and kind, with the number held back since the last one.
 */
export type Warn = (message: string, error?: unknown) => void;

export function rateLimitedWarn(warn: Warn, intervalMs = 60_000, now: () => number = Date.now): Warn {
  const last = new Map<string, { at: number; held: number }>();
  return (message, error) => {
    const nowMs = now();
    const entry = last.get(message);
    if (entry && nowMs - entry.at < intervalMs) {
      entry.held += 1;
      return;
    }
    const held = entry?.held ?? 0;
    last.set(message, { at: nowMs, held: 0 });
    warn(held > 0 ? `${message} (${held} more since the last warning)` : message, error);
  };
}
