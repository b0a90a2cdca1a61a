/**
 * Fixed-window counters for rate limits, in memory for one instance. Several instances share their
 * counts through Redis with shared-rate-limiter.ts, which decides in memory too.
 */

export interface LimitDecision {
  allowed: boolean;
  remaining: number;
  /** Milliseconds until the current window ends. */
  resetMs: number;
}

export interface RateLimiter {
  /** Counts one hit and says whether it is within `limit` per `windowMs`. */
  consume(key: string, limit: number, windowMs: number): Promise<LimitDecision>;
  /** Says whether the key is already over its limit, without counting. */
  peek(key: string, limit: number, windowMs: number): Promise<LimitDecision>;
  /** `consume` without a promise (the per-request hot path). */
  consumeNow(key: string, limit: number, windowMs: number): LimitDecision;
  /**
   * Gives back one hit counted by `consume` in the current window (never below zero): a caller
   * that counts an attempt before knowing whether it is one to limit (a failed token request)
   * returns it once it is known not to be.
   */
  release(key: string, windowMs: number): Promise<void>;
}

function decide(count: number, limit: number, windowStart: number, windowMs: number, nowMs: number): LimitDecision {
  return { allowed: count <= limit, remaining: Math.max(0, limit - count), resetMs: windowStart + windowMs - nowMs };
}

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const counters = new Map<string, { windowStart: number; windowMs: number; count: number }>();
  let lastSweep = 0;
  // Each counter ends with its own window: a caller with a short window must not clear the
  // count of a longer one (a 10-minute limit swept by a 1-minute caller would never trip).
  const sweep = (nowMs: number, windowMs: number) => {
    if (nowMs - lastSweep < windowMs) return;
    lastSweep = nowMs;
    for (const [key, c] of counters) if (c.windowStart + c.windowMs <= nowMs) counters.delete(key);
  };
  const read = (key: string, windowMs: number, nowMs: number) => {
    const windowStart = Math.floor(nowMs / windowMs) * windowMs;
    const current = counters.get(key);
    return current && current.windowStart === windowStart && current.windowMs === windowMs
      ? current
      : { windowStart, windowMs, count: 0 };
  };
  const consumeNow = (key: string, limit: number, windowMs: number): LimitDecision => {
    const nowMs = now();
    sweep(nowMs, windowMs);
    const counter = read(key, windowMs, nowMs);
    counter.count += 1;
    counters.set(key, counter);
    return decide(counter.count, limit, counter.windowStart, windowMs, nowMs);
  };
  return {
    consumeNow,
    consume: async (key, limit, windowMs) => consumeNow(key, limit, windowMs),
    async release(key, windowMs) {
      const counter = read(key, windowMs, now());
      if (counter.count > 0) counter.count -= 1;
    },
    async peek(key, limit, windowMs) {
      const nowMs = now();
      const counter = read(key, windowMs, nowMs);
      return decide(counter.count + 1, limit, counter.windowStart, windowMs, nowMs);
    },
  };
}
