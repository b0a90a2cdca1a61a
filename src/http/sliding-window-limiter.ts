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

/**
 * The decision over `count` attempts in the window, the new one included; `newest` holds the times of the
 * newest `limit + 1` of them (or all, when fewer), oldest first.
 */
function decide(count: number, newest: readonly number[], limit: number, windowMs: number, nowMs: number) {
  // Over the limit, the key is allowed again once the attempt before the newest `limit` leaves the window.
  const freeing = count > limit ? newest[newest.length - limit - 1]! : nowMs - windowMs;
  const decision: LimitDecision = {
    allowed: count <= limit,
    remaining: Math.max(0, limit - count),
    resetMs: freeing + windowMs - nowMs,
  };
  return decision;
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
          kept.length,
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
          .zcard(redisKey(key))
          // Only the newest `limit + 1` are read: a key hammered by thousands of attempts costs the same.
          .zrange(redisKey(key), String(-(limit + 1)), '-1', 'WITHSCORES')
          .pexpire(redisKey(key), windowMs)
          .exec();
        const count = results?.[2]?.[1] as number | undefined;
        const listed = results?.[3]?.[1] as string[] | undefined;
        if (count === undefined || !listed) throw results?.find(([error]) => error)?.[0] ?? new Error('no answer');
        const newest = listed.filter((_, i) => i % 2 === 1).map(Number);
        return { id, decision: decide(count, newest, limit, windowMs, nowMs) };
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
