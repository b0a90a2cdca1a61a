import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lazily } from './lazily.ts';

test('lazily makes its value on the first call only, and never before it', () => {
  let made = 0;
  const value = lazily(() => ({ n: ++made }));
  assert.equal(made, 0);
  const first = value();
  assert.equal(made, 1);
  assert.equal(value(), first);
  assert.equal(made, 1);
});

test('lazily keeps a value that is undefined without making it again', () => {
  let made = 0;
  const value = lazily(() => {
    made++;
    return undefined;
  });
  value();
  value();
  assert.equal(made, 1);
});
