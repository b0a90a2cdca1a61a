import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ruleInputs } from './explain.ts';
import { buildOffer } from './offer.ts';
import { rules } from './rules/index.ts';
import { loadPrequalificationConfig } from './rules-config.ts';

const config = loadPrequalificationConfig();

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
      {
        price: 300_000,
        downPayment: 50_000,
        term: 48,
        income: 40_000,
        reportedMonthlyDebts: 1_100,
        loanMonthlyPayment: buildOffer({ price: 300_000, downPayment: 50_000, term: 48, report }, config)
          .monthlyPayment,
      },
    ],
    ['vehicle-age', { modelYear: 2024, term: 48 }],
  ];
  assert.deepEqual(
    cases.map(([name]) => name).sort(),
    rules.map((r) => r.name).sort(),
    'every rule of the registry is covered',
  );
  for (const [name, expected] of cases) assert.deepEqual(ruleInputs(name, input, config), expected, name);
});

test("the payment-to-income rule's loan payment is the offer's, and null where the rule computes none", () => {
  const input = {
    loan: { downPayment: 60_000, term: 48 },
    vehicle: { price: 300_000 },
    financial: { income: 18_000 },
    report,
  };
  const payment = (over: object) => ruleInputs('payment-to-income', { ...input, ...over }, config).loanMonthlyPayment;
  // 240,000 at the 640 score's tier over 48 months, IVA on the interest.
  assert.equal(
    payment({}),
    buildOffer({ price: 300_000, downPayment: 60_000, term: 48, report }, config).monthlyPayment,
  );
  assert.ok((payment({}) as number) > 5_000);
  assert.equal(payment({ loan: { downPayment: 300_000, term: 48 } }), null, 'nothing to finance');
  assert.equal(payment({ loan: { downPayment: 60_000, term: 47 } }), null, 'a term not offered');
  assert.equal(payment({ report: undefined }), null, 'no report');
});

test('without data, the inputs are null rather than absent', () => {
  assert.deepEqual(ruleInputs('payment-to-income', {}, config), {
    price: null,
    downPayment: null,
    term: null,
    income: null,
    reportedMonthlyDebts: null,
    loanMonthlyPayment: null,
  });
  assert.deepEqual(ruleInputs('no-such-rule', {}, config), {});
});
