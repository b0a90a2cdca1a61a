import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toAppError } from './app-error.ts';

test('toAppError maps every provider and failure kind to 412 and its 6XXYYY code', () => {
  const cases = [
    ['sms', 'error', 601003],
    ['sms', 'timeout', 601001],
    ['sms', 'rejected', 601002],
    ['sms', 'circuit_open', 601004],
    ['email', 'timeout', 602001],
    ['email', 'rejected', 602002],
    ['email', 'error', 602003],
    ['bureau', 'error', 603003],
    ['bureau', 'timeout', 603001],
  ] as const;
  for (const [provider, kind, code] of cases) {
    const err = toAppError(provider, { kind });
    assert.equal(err.statusCode, 412);
    assert.equal(err.code, code, `${provider} ${kind}`);
    assert.equal(err.message, 'Third-party message error');
  }
});
