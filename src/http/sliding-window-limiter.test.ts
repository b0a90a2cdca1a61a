import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { createMemorySlidingWindow, createRedisSlidingWindow } from './sliding-window-limiter.ts';

test('every attempt of the last window counts, whatever boundary falls between them', async () => {
  let nowMs = 15 * 60_000 - 10_000; // ten seconds before a quarter hour
  const limiter = createMemorySlidingWindow(() => nowMs);
  for (let i = 0; i < 3; i++) assert.equal((await limiter.attempt('k', 3, 60_000)).decision.allowed, true);
  nowMs += 20_000; // past the boundary
  const fourth = await limiter.attempt('k', 3, 60_000);
  assert.deepEqual(fourth.decision, { allowed: false, remaining: 0, resetMs: 40_000 });
  nowMs += 41_000; // the first three have left the window; the fourth is still in it
  assert.equal((await limiter.attempt('k', 3, 60_000)).decision.allowed, true);
});

test('an attempt given back no longer counts; other keys are apart', async () => {
  const limiter = createMemorySlidingWindow(() => 1_000);
  const first = await limiter.attempt('a', 1, 60_000);
  await limiter.release('a', first.id);
  assert.equal((await limiter.attempt('a', 1, 60_000)).decision.allowed, true);
  assert.equal((await limiter.attempt('a', 1, 60_000)).decision.allowed, false);
  assert.equal((await limiter.attempt('b', 1, 60_000)).decision.allowed, true);
});

test('while Redis does not answer, attempts are counted in memory and the failure reported', async () => {
  const redis = new Redis('redis://127.0.0.1:1', {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  const reported: unknown[] = [];
  const limiter = createRedisSlidingWindow(
    redis,
    'test',
    () => 5_000,
    (error) => reported.push(error),
  );
  assert.equal((await limiter.attempt('k', 1, 60_000)).decision.allowed, true);
  assert.equal((await limiter.attempt('k', 1, 60_000)).decision.allowed, false);
  assert.ok(reported.length >= 2);
  redis.disconnect();
});
