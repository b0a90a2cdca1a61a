import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maxAttempts, nextAttemptAt } from './retry-schedule.ts';

test('failed attempts are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then not again', () => {
  const at = new Date('2026-01-15T12:00:00Z');
  const waits = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => {
    const next = nextAttemptAt(n, at);
    return next && (next.getTime() - at.getTime()) / 1000;
  });
  assert.deepEqual(waits, [5, 300, 1800, 7200, 18000, 36000, 36000, undefined]);
  assert.equal(maxAttempts, 8);
});
