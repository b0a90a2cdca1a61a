/**
 * Sliding-window limits for rare, costly attempts (the console's sign-in): every attempt of a key in the
 * last `windowMs` counts, whatever clock boundary falls between them, so a key never gets twice its
 * limit across two windows as fixed windows allow. Each attempt is kept (a timestamp), which suits
 * attempts counted in tens, not the partner API's requests.
 *
 * With Redis the attempts are a sorted set per key shared by every instance, trimmed and counted in one
 * transaction; while Redis does not answer, each instance counts its own attempts in memory.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { LimitDecision } from './rate-limiter.ts';

export interface Attempt {
  decision: LimitDecision;
  /** Names the attempt, to give it back. */
  id: string;
}

export interface SlidingWindowLimiter {
  /** Counts an attempt of `key` now and says whether the attempts of the last `windowMs` are within `limit`. */
  attempt(key: string, limit: number, windowMs: number): Promise<Attempt>;
  /** Gives back an attempt that turned out not to be one to limit (a successful sign-in). */
  release(key: string, id: string): Promise<void>;
}

/** The decision over the attempts' times (oldest first, the new one included). */
function decide(times: readonly number[], limit: number, windowMs: number, nowMs: number): LimitDecision {
  const count = times.length;
  // Over the limit, the key is allowed again once enough of its oldest attempts have left the window.
  const freeing = count > limit ? times[count - limit - 1]! : nowMs - windowMs;
  return { allowed: count <= limit, remaining: Math.max(0, limit - count), resetMs: freeing + windowMs - nowMs };
}

export function createMemorySlidingWindow(now: () => number): SlidingWindowLimiter {
  const attempts = new Map<string, { at: number; id: string }[]>();
  return {
    async attempt(key, limit, windowMs) {
      const nowMs = now();
      const kept = (attempts.get(key) ?? []).filter((a) => a.at > nowMs - windowMs);
      const id = randomBytes(6).toString('base64url');
      kept.push({ at: nowMs, id });
      attempts.set(key, kept);
      // Keys whose attempts all left their window are forgotten as others are counted.
      if (attempts.size > 10_000) {
        for (const [k, list] of attempts) if (list.every((a) => a.at <= nowMs - windowMs)) attempts.delete(k);
      }
      return {
        id,
        decision: decide(
          kept.map((a) => a.at),
          limit,
          windowMs,
          nowMs,
        ),
      };
    },
    async release(key, id) {
      const list = attempts.get(key);
      if (list)
        attempts.set(
          key,
          list.filter((a) => a.id !== id),
        );
    },
  };
}

export function createRedisSlidingWindow(
  redis: Redis,
  prefix: string,
  now: () => number,
  onUnavailable: (error: unknown) => void,
): SlidingWindowLimiter {
  const local = createMemorySlidingWindow(now);
  const redisKey = (key: string) => `${prefix}:sw:${key}`;
  return {
    async attempt(key, limit, windowMs) {
      const nowMs = now();
      const id = `${nowMs}:${randomBytes(6).toString('base64url')}`;
      try {
        const results = await redis
          .multi()
          .zremrangebyscore(redisKey(key), '-inf', nowMs - windowMs)
          .zadd(redisKey(key), nowMs, id)
          .zrange(redisKey(key), '0', '-1', 'WITHSCORES')
          .pexpire(redisKey(key), windowMs)
          .exec();
        const listed = results?.[2]?.[1] as string[] | undefined;
        if (!listed) throw results?.find(([error]) => error)?.[0] ?? new Error('no answer');
        const times = listed.filter((_, i) => i % 2 === 1).map(Number);
        return { id, decision: decide(times, limit, windowMs, nowMs) };
      } catch (error) {
        onUnavailable(error);
        return local.attempt(key, limit, windowMs);
      }
    },
    async release(key, id) {
      await local.release(key, id);
      await redis.zrem(redisKey(key), id).catch(onUnavailable);
    },
  };
}
