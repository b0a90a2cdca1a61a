import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OUTCOME_STATUSES, outcomeMayMove, type OutcomeStatus } from './outcome-status.ts';
import { hasCents, outcomeFieldErrors, type OutcomeChange } from './outcome-rules.ts';

// The transition table as the contract writes it: Y allowed, . refused.
//                 IN_REVIEW CONDITIONED APPROVED DECLINED FUNDED WITHDRAWN
const table: [OutcomeStatus | null, string][] = [
  [null, 'YYYY.Y'],
  ['IN_REVIEW', '.YYY.Y'],
  ['CONDITIONED', 'YYYY.Y'],
  ['APPROVED', '...YYY'],
  ['FUNDED', '......'],
  ['DECLINED', '......'],
  ['WITHDRAWN', '......'],
];

test('every move of the transition table, allowed and refused', () => {
  assert.deepEqual([...OUTCOME_STATUSES], ['IN_REVIEW', 'CONDITIONED', 'APPROVED', 'DECLINED', 'FUNDED', 'WITHDRAWN']);
  for (const [from, row] of table) {
    OUTCOME_STATUSES.forEach((to, i) => {
      assert.equal(outcomeMayMove(from, to), row[i] === 'Y', `${from ?? 'none'} → ${to}`);
    });
  }
});

const cases: { change: OutcomeChange; approvedBefore?: number; fields: string[] }[] = [
  { change: { status: 'IN_REVIEW' }, fields: [] },
  { change: { status: 'IN_REVIEW', reasonCode: 'OTHER', note: 'x' }, fields: [] },
  { change: { status: 'CONDITIONED' }, fields: ['conditions'] },
  { change: { status: 'CONDITIONED', conditions: [{ code: 'CO_SIGNER', description: 'Aval' }] }, fields: [] },
  {
    change: { status: 'APPROVED', conditions: [{ code: 'CO_SIGNER', description: 'Aval' }], amountApproved: 1 },
    fields: ['conditions'],
  },
  { change: { status: 'APPROVED' }, fields: ['amountApproved'] },
  { change: { status: 'APPROVED', amountApproved: 100.5 }, fields: [] },
  { change: { status: 'APPROVED', amountApproved: 100.555 }, fields: ['amountApproved'] },
  { change: { status: 'APPROVED', amountApproved: 5, reasonCode: 'OTHER' }, fields: ['reasonCode'] },
  { change: { status: 'APPROVED', amountApproved: 5, amountFunded: 5 }, fields: ['amountFunded'] },
  { change: { status: 'FUNDED' }, fields: ['amountFunded'] },
  { change: { status: 'FUNDED', amountFunded: 90 }, approvedBefore: 100, fields: [] },
  { change: { status: 'FUNDED', amountFunded: 100 }, approvedBefore: 100, fields: [] },
  { change: { status: 'FUNDED', amountFunded: 100.01 }, approvedBefore: 100, fields: ['amountFunded'] },
  {
    change: { status: 'FUNDED', amountFunded: 1, amountApproved: 1, reasonCode: 'OTHER' },
    fields: ['reasonCode', 'amountApproved'],
  },
  { change: { status: 'DECLINED' }, fields: ['reasonCode'] },
  { change: { status: 'DECLINED', reasonCode: 'FRAUD_SUSPECTED' }, fields: [] },
  { change: { status: 'WITHDRAWN' }, fields: ['reasonCode'] },
  { change: { status: 'WITHDRAWN', reasonCode: 'NO_CONTACT', amountApproved: 3 }, fields: ['amountApproved'] },
];

test('each status takes the fields it needs and refuses those it does not', () => {
  for (const c of cases) {
    const fields = outcomeFieldErrors(c.change, c.approvedBefore ?? null).map((e) => e.field);
    assert.deepEqual(fields, c.fields, JSON.stringify(c));
  }
});

test('amounts have at most two decimals, checked on cents', () => {
  for (const ok of [1, 0.1, 0.29, 1234567.89, 99999999.99]) assert.equal(hasCents(ok), true, String(ok));
  for (const bad of [0.001, 1.005, 10.123]) assert.equal(hasCents(bad), false, String(bad));
});
