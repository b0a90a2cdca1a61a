/**
 * The counters several instances share (Redis with REDIS_URL): one exchange adds what an instance
 * counted since its last exchange and reads back every total, in one pipelined round trip. It also
 * says how many instances took part lately, so each can take its share of what is left.
 */
import type { Redis } from 'ioredis';

export interface WindowExchange {
  /** The window's identity: its length and start (`60000:1768478400000`). */
  window: string;
  /** Hits counted since the last exchange, less those given back, per key (keys with nothing new may be absent). */
  deltas: ReadonlyArray<readonly [key: string, delta: number]>;
  /** How long the window's counters must live: until it ends. */
  ttlMs: number;
}

export interface Exchange {
  /** Every key's total in each window after the exchange (other instances' keys included). */
  totals: Map<string, number>[];
  /** Instances that exchanged within the last `instanceTtlMs` (this one included, so at least 1). */
  instances: number;
}

export interface SharedCounters {
  exchange(instanceId: string, nowMs: number, windows: readonly WindowExchange[]): Promise<Exchange>;
}

/** An instance that has not exchanged for this long no longer takes a share. */
export const instanceTtlMs = 2_000;

const toTotals = (hash: Record<string, string>) => new Map(Object.entries(hash).map(([k, v]) => [k, Number(v)]));

/** One hash per window (`<prefix>:rl:<window>`), field per key, and a sorted set of live instances. */
export function createRedisSharedCounters(redis: Redis, prefix: string): SharedCounters {
  const instancesKey = `${prefix}:rl-instances`;
  return {
    async exchange(instanceId, nowMs, windows) {
      const pipeline = redis.pipeline();
      for (const { window, deltas, ttlMs } of windows) {
        const hashKey = `${prefix}:rl:${window}`;
        for (const [key, delta] of deltas) if (delta !== 0) pipeline.hincrby(hashKey, key, delta);
        pipeline.pexpire(hashKey, ttlMs).hgetall(hashKey);
      }
      pipeline
        .zadd(instancesKey, nowMs, instanceId)
        .zremrangebyscore(instancesKey, '-inf', nowMs - instanceTtlMs)
        .zcard(instancesKey)
        .pexpire(instancesKey, instanceTtlMs * 2);
      const results = (await pipeline.exec()) ?? [];
      const failed = results.find(([error]) => error);
      if (failed) throw failed[0];
      const totals: Map<string, number>[] = [];
      let at = 0;
      for (const { deltas } of windows) {
        at += deltas.filter(([, delta]) => delta !== 0).length + 2;
        totals.push(toTotals(results[at - 1][1] as Record<string, string>));
      }
      return { totals, instances: Math.max(1, Number(results[at + 2][1])) };
    },
  };
}

/**
 * The same counters in memory, shared by the limiters given it: several instances in one test.
 * `failing` makes every exchange throw (Redis down).
 */
export function createMemorySharedCounters() {
  const windows = new Map<string, Map<string, number>>();
  const seen = new Map<string, number>();
  const state = { failing: false, exchanges: 0 };
  const counters: SharedCounters & { state: typeof state; total(window: string, key: string): number } = {
    state,
    total: (window, key) => windows.get(window)?.get(key) ?? 0,
    async exchange(instanceId, nowMs, exchanged) {
      if (state.failing) throw new Error('shared counters unavailable');
      state.exchanges += 1;
      seen.set(instanceId, nowMs);
      for (const [id, at] of seen) if (at <= nowMs - instanceTtlMs) seen.delete(id);
      const totals = exchanged.map(({ window, deltas }) => {
        const hash = windows.get(window) ?? new Map<string, number>();
        windows.set(window, hash);
        for (const [key, delta] of deltas) hash.set(key, (hash.get(key) ?? 0) + delta);
        return new Map(hash);
      });
      return { totals, instances: Math.max(1, seen.size) };
    },
  };
  return counters;
}
