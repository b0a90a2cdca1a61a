import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createMemoryRateLimiter, type RateLimiter } from './rate-limiter.ts';
import { createSharedRateLimiter } from './shared-rate-limiter.ts';
import { createMemorySharedCounters } from './shared-counters.ts';

const minute = 60_000;
// A window start, and a moment 10 s into that window.
const windowStart = Date.parse('2026-01-15T12:00:00Z');

/** The same behaviour, whatever the store: counts in fixed windows that start on a multiple of windowMs. */
function limiterContract(name: string, build: (now: () => number) => RateLimiter) {
  describe(name, () => {
    let nowMs = windowStart + 10_000;
    let limiter: RateLimiter;
    let key = '';
    before(() => {
      limiter = build(() => nowMs);
    });
    const fresh = () => {
      nowMs = windowStart + 10_000;
      key = `k-${randomBytes(6).toString('hex')}`;
    };

    test('allows `limit` hits in a window, then refuses, with the time left until the window ends', async () => {
      fresh();
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await limiter.consume(key, 3, minute));
      assert.deepEqual(
        decisions.map((d) => [d.allowed, d.remaining]),
        [
          [true, 2],
          [true, 1],
          [true, 0],
          [false, 0],
        ],
      );
      assert.equal(decisions[3].resetMs, 50_000);
    });

    test('a new window starts a new count', async () => {
      fresh();
      for (let i = 0; i < 4; i++) await limiter.consume(key, 3, minute);
      nowMs = windowStart + minute - 1;
      assert.equal((await limiter.consume(key, 3, minute)).allowed, false, 'still the same window');
      nowMs = windowStart + minute;
      const next = await limiter.consume(key, 3, minute);
      assert.deepEqual([next.allowed, next.remaining, next.resetMs], [true, 2, minute]);
    });

    test('peek says whether the next hit would pass, without counting it', async () => {
      fresh();
      for (let i = 0; i < 5; i++) assert.equal((await limiter.peek(key, 3, minute)).allowed, true, `peek ${i}`);
      for (let i = 0; i < 2; i++) await limiter.consume(key, 3, minute);
      const beforeLast = await limiter.peek(key, 3, minute);
      assert.deepEqual([beforeLast.allowed, beforeLast.remaining], [true, 0]);
      await limiter.consume(key, 3, minute);
      const over = await limiter.peek(key, 3, minute);
      assert.deepEqual([over.allowed, over.resetMs], [false, 50_000]);
      nowMs = windowStart + minute;
      assert.equal((await limiter.peek(key, 3, minute)).allowed, true, 'a new window forgets the count');
    });

    test('keys are counted apart', async () => {
      fresh();
      for (let i = 0; i < 3; i++) await limiter.consume(`${key}:a`, 3, minute);
      assert.equal((await limiter.consume(`${key}:a`, 3, minute)).allowed, false);
      assert.deepEqual(await limiter.consume(`${key}:b`, 3, minute), { allowed: true, remaining: 2, resetMs: 50_000 });
    });

    test('release gives back one counted hit, never going below zero', async () => {
      fresh();
      await limiter.release(key, minute);
      for (let i = 0; i < 3; i++) await limiter.consume(key, 3, minute);
      await limiter.release(key, minute);
      assert.deepEqual(await limiter.consume(key, 3, minute), { allowed: true, remaining: 0, resetMs: 50_000 });
      assert.equal((await limiter.consume(key, 3, minute)).allowed, false);
      const other = `${key}:released-first`;
      await limiter.release(other, minute);
      assert.equal((await limiter.consume(other, 1, minute)).remaining, 0, 'a release before any hit gives no credit');
    });

    test('a window of another length is aligned on its own multiple', async () => {
      fresh();
      nowMs = windowStart + 2_500;
      const decision = await limiter.consume(key, 1, 1_000);
      assert.deepEqual(decision, { allowed: true, remaining: 0, resetMs: 500 });
    });
  });
}

limiterContract('memory rate limiter', (now) => createMemoryRateLimiter(now));
limiterContract('shared rate limiter, alone', (now) =>
  createSharedRateLimiter({ counters: createMemorySharedCounters(), now, manual: true }),
);

describe('memory rate limiter with windows of several lengths', () => {
  test('clearing the expired counters of a short window keeps the count of a longer one', async () => {
    let nowMs = windowStart + 1_000;
    const limiter = createMemoryRateLimiter(() => nowMs);
    for (let i = 0; i < 3; i++) await limiter.consume('pin-sends', 3, 10 * minute);
    nowMs += 2 * minute;
    await limiter.consume('token-key', 60, minute);
    await limiter.consume('burst', 5, 1_000);
    const decision = await limiter.consume('pin-sends', 3, 10 * minute);
    assert.deepEqual([decision.allowed, decision.remaining], [false, 0], 'the 10-minute count survived');
  });

  test('expired counters are forgotten, so the next window starts at zero', async () => {
    let nowMs = windowStart + 1_000;
    const limiter = createMemoryRateLimiter(() => nowMs);
    for (let i = 0; i < 4; i++) await limiter.consume('k', 3, minute);
    nowMs += 3 * minute;
    await limiter.consume('other', 3, minute);
    assert.deepEqual(await limiter.peek('k', 3, minute), { allowed: true, remaining: 2, resetMs: minute - 1_000 });
  });
});
