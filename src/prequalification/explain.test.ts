import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ruleInputs } from './explain.ts';
import { rules } from './rules/index.ts';

const report = {
  provider: 'sandbox',
  folio: 'F1',
  queriedAt: '2026-01-15T12:00:00Z',
  recordFound: true,
  score: 640,
  inquiries: [],
  accounts: [
    {
      type: 'CREDIT_CARD',
      lender: 'Banco',
      openedAt: '2020-01-01',
      creditLimit: 10_000,
      balance: 4_000,
      monthlyPayment: 800,
      worstDelinquencyDays: 30,
      worstDelinquencyDate: '2025-06-01',
    },
    {
      type: 'TELECOM',
      lender: 'Tel',
      openedAt: '2021-01-01',
      creditLimit: 0,
      balance: 0,
      monthlyPayment: 300,
      worstDelinquencyDays: 0,
      worstDelinquencyDate: null,
    },
  ],
};

test('each rule reads its own input values from the lead and the report', () => {
  const input = {
    birthDate: '1985-04-12',
    loan: { downPayment: 50_000, term: 48 },
    vehicle: { price: 300_000, modelYear: 2024 },
    financial: { employmentType: 'Empleado', startEmploymentDate: '2019-02-01', income: 40_000 },
    report,
  };
  const cases: [string, Record<string, unknown>][] = [
    ['applicant-age', { birthDate: '1985-04-12' }],
    ['age-at-end-of-term', { birthDate: '1985-04-12', term: 48 }],
    ['bureau-score', { recordFound: true, score: 640 }],
    ['recent-delinquency', { worstDelinquencyDays: 30, delinquencies: [{ days: 30, date: '2025-06-01' }] }],
    ['term-offered', { term: 48 }],
    ['down-payment-share', { price: 300_000, downPayment: 50_000, recordFound: true }],
    ['employment-seniority', { employmentType: 'Empleado', startEmploymentDate: '2019-02-01', startDate: null }],
    [
      'payment-to-income',
      { price: 300_000, downPayment: 50_000, term: 48, income: 40_000, reportedMonthlyDebts: 1_100 },
    ],
    ['vehicle-age', { modelYear: 2024, term: 48 }],
  ];
  assert.deepEqual(
    cases.map(([name]) => name).sort(),
    rules.map((r) => r.name).sort(),
    'every rule of the registry is covered',
  );
  for (const [name, expected] of cases) assert.deepEqual(ruleInputs(name, input), expected, name);
});

test('without data, the inputs are null rather than absent', () => {
  assert.deepEqual(ruleInputs('payment-to-income', {}), {
    price: null,
    downPayment: null,
    term: null,
    income: null,
    reportedMonthlyDebts: null,
  });
  assert.deepEqual(ruleInputs('no-such-rule', {}), {});
});
