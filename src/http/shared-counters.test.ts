import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRedisSharedCounters } from './shared-counters.ts';

describe('shared counters in Redis', () => {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  const prefix = `autofin-test:${randomBytes(6).toString('hex')}`;
  after(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  test(
    'two instances add their counts and each reads every ' + "key's total and the instances seen, in one exchange",
    async () => {
      const counters = createRedisSharedCounters(redis, prefix);
      const nowMs = Date.now();
      const first = await counters.exchange('a', nowMs, [
        {
          window: '60000:1',
          deltas: [
            ['company:1', 3],
            ['company:2', 0],
          ],
          ttlMs: 30_000,
        },
      ]);
      assert.deepEqual([...first.totals[0]], [['company:1', 3]]);
      assert.equal(first.instances, 1);
      const second = await counters.exchange('b', nowMs, [
        {
          window: '60000:1',
          deltas: [
            ['company:1', 2],
            ['company:2', 1],
          ],
          ttlMs: 30_000,
        },
        { window: '600000:1', deltas: [], ttlMs: 30_000 },
      ]);
      assert.deepEqual(Object.fromEntries(second.totals[0]), { 'company:1': 5, 'company:2': 1 });
      assert.equal(second.totals[1].size, 0);
      assert.equal(second.instances, 2);
      const ttl = await redis.pttl(`${prefix}:rl:60000:1`);
      assert.ok(ttl > 0 && ttl <= 30_000, `the window's counters expire with it (pttl ${ttl})`);
    },
  );

  test('an instance silent for more than two seconds no longer counts', async () => {
    const counters = createRedisSharedCounters(redis, `${prefix}-live`);
    await counters.exchange('old', Date.now() - 3_000, []);
    assert.equal((await counters.exchange('new', Date.now(), [])).instances, 1);
  });
});
