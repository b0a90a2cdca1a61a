import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rateLimitedWarn } from './rate-limited-warn.ts';

test('a repeated warning is written once per interval, then with the count held back', () => {
  let nowMs = 0;
  const written: string[] = [];
  const warn = rateLimitedWarn(
    (message) => written.push(message),
    60_000,
    () => nowMs,
  );
  for (let i = 0; i < 147; i++) {
    warn('redis unavailable');
    nowMs += 200;
  }
  warn('another kind');
  assert.deepEqual(written, ['redis unavailable', 'another kind']);
  nowMs = 60_000;
  warn('redis unavailable');
  assert.deepEqual(written.at(-1), 'redis unavailable (146 more since the last warning)');
  warn('redis unavailable');
  assert.equal(written.length, 3);
});
