import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addYears, retentionOf, underRetention } from './retention.ts';

const policy = { piiRetentionDays: 180, creditRetentionYears: 10 };
const updatedAt = new Date('2026-01-10T12:00:00.000Z');

test('a credit is kept the credit years from its funding; another lead the days from its last change', () => {
  const funded = retentionOf(
    policy,
    { updatedAt, legalHold: false },
    { status: 'FUNDED', at: '2026-02-01T15:00:00.000Z' },
  );
  assert.deepEqual(funded, { class: 'credit', retainedUntil: '2036-02-01T15:00:00.000Z', legalHold: false });
  for (const outcome of [null, { status: 'APPROVED', at: '2026-02-01T15:00:00.000Z' }]) {
    assert.deepEqual(retentionOf(policy, { updatedAt, legalHold: true }, outcome), {
      class: 'lead',
      retainedUntil: '2026-07-09T12:00:00.000Z',
      legalHold: true,
    });
  }
});

test('an erasure waits for a hold, or for a credit inside its years; not for an ordinary lead', () => {
  const now = new Date('2030-01-01T00:00:00Z');
  const credit = retentionOf(policy, { updatedAt, legalHold: false }, { status: 'FUNDED', at: '2026-02-01T15:00:00Z' });
  assert.equal(underRetention(credit, now), true);
  assert.equal(underRetention(credit, new Date('2036-02-01T15:00:01Z')), false);
  assert.equal(underRetention(retentionOf(policy, { updatedAt, legalHold: false }, null), now), false);
  assert.equal(underRetention(retentionOf(policy, { updatedAt, legalHold: true }, null), now), true);
});

test('years move the date, 29 February landing on 28 February', () => {
  assert.equal(addYears(new Date('2028-02-29T10:00:00Z'), 10).toISOString(), '2038-02-28T10:00:00.000Z');
  assert.equal(addYears(new Date('2026-11-29T06:00:00Z'), -10).toISOString(), '2016-11-29T06:00:00.000Z');
});
