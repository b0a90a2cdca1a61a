import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BureauAccount, BureauReport } from '../../bureau/index.ts';
import { loadPrequalificationConfig, type PrequalificationConfig } from '../rules-config.ts';
import { addMonths, completedMonths, startOfMonthAfter } from './calendar.ts';
import { rules } from './index.ts';
import type { Rule, RuleInput, RuleResult } from './rule.ts';

const base = loadPrequalificationConfig();
const TODAY = '2026-01-15';

function account(overrides: Partial<BureauAccount> = {}): BureauAccount {
  return {
    type: 'CREDIT_CARD',
    lender: 'BANCO DEMO',
    openedAt: '2018-01-01',
    creditLimit: 50_000,
    balance: 5_000,
    monthlyPayment: 500,
    worstDelinquencyDays: 0,
    worstDelinquencyDate: null,
    ...overrides,
  };
}

function report(score: number | null, accounts: BureauAccount[] = []): BureauReport {
  return {
    provider: 'sandbox',
    folio: 'F',
    queriedAt: `${TODAY}T18:00:00.000Z`,
    recordFound: score !== null,
    score,
    accounts,
    inquiries: [],
  };
}

/** A sound applicant: every rule passes on it. */
const sound: RuleInput = {
  today: TODAY,
  birthDate: '1985-04-12',
  loan: { downPayment: 60_000, term: 48 },
  vehicle: { price: 300_000, modelYear: 2024 },
  financial: { employmentType: 'Empleado', startEmploymentDate: '2020-03-01', income: 40_000 },
  report: report(780, [account()]),
};

interface Case {
  name: string;
  input?: Partial<RuleInput>;
  config?: Partial<PrequalificationConfig>;
  expected: RuleResult['status'] | { code: string } | { fields: string[] };
}

function rule(name: string): Rule {
  const found = rules.find((r) => r.name === name);
  assert.ok(found, `rule ${name} is registered`);
  return found;
}

function runCases(ruleName: string, cases: Case[]): void {
  for (const c of cases) {
    test(`${ruleName}: ${c.name}`, () => {
      const result = rule(ruleName).check({ ...sound, ...c.input }, { ...base, ...c.config });
      const expected = c.expected;
      if (typeof expected === 'string') return assert.equal(result.status, expected, JSON.stringify(result));
      if ('code' in expected) {
        assert.equal(result.status, 'fail', JSON.stringify(result));
        if (result.status === 'fail') assert.equal(result.code, expected.code);
        return;
      }
      assert.deepEqual(result, { status: 'missing', fields: expected.fields });
    });
  }
}

test('the registry lists every rule once, in a fixed order', () => {
  assert.deepEqual(
    rules.map((r) => r.name),
    [
      'applicant-age',
      'age-at-end-of-term',
      'bureau-score',
      'recent-delinquency',
      'term-offered',
      'down-payment-share',
      'employment-seniority',
      'payment-to-income',
      'vehicle-age',
    ],
  );
  for (const r of rules) assert.equal(r.check(sound, base).status, 'pass', r.name);
});

runCases('applicant-age', [
  { name: 'an adult passes', expected: 'pass' },
  { name: 'someone turning 18 today passes', input: { birthDate: '2008-01-15' }, expected: 'pass' },
  { name: 'a minor fails', input: { birthDate: '2008-01-16' }, expected: { code: 'AGE_OUT_OF_RANGE' } },
  {
    name: 'someone over the maximum age fails',
    input: { birthDate: '1955-01-14' },
    expected: { code: 'AGE_OUT_OF_RANGE' },
  },
  { name: 'no birth date is missing', input: { birthDate: null }, expected: { fields: ['person.birthDate'] } },
  {
    name: 'an unreadable birth date counts as missing',
    input: { birthDate: '12/04/1985' },
    expected: { fields: ['person.birthDate'] },
  },
]);

runCases('age-at-end-of-term', [
  { name: 'a young applicant passes', expected: 'pass' },
  {
    name: '75 at the last payment passes',
    input: { birthDate: '1955-01-16', loan: { downPayment: 60_000, term: 60 } },
    expected: 'pass',
  },
  {
    name: '76 at the last payment fails',
    input: { birthDate: '1955-01-15', loan: { downPayment: 60_000, term: 60 } },
    expected: { code: 'AGE_AT_END_OF_TERM' },
  },
  {
    name: 'a shorter term makes the same applicant pass',
    input: { birthDate: '1955-01-15', loan: { downPayment: 60_000, term: 12 } },
    expected: 'pass',
  },
  { name: 'no term is missing', input: { loan: { downPayment: 1 } }, expected: { fields: ['loanInfo.term'] } },
  {
    name: 'a fractional term is left to term-offered',
    input: { birthDate: '1955-01-15', loan: { downPayment: 1, term: 60.5 } },
    expected: 'pass',
  },
  {
    name: 'no birth date nor term lists both',
    input: { birthDate: undefined, loan: null },
    expected: { fields: ['person.birthDate', 'loanInfo.term'] },
  },
]);

runCases('bureau-score', [
  { name: 'the minimum score passes', input: { report: report(620) }, expected: 'pass' },
  { name: 'one point below fails', input: { report: report(619) }, expected: { code: 'LOW_SCORE' } },
  { name: 'no record passes when thin files are allowed', input: { report: report(null) }, expected: 'pass' },
  {
    name: 'no record fails when thin files are refused',
    input: { report: report(null) },
    config: { noRecordPolicy: 'REJECT' },
    expected: { code: 'NO_CREDIT_RECORD' },
  },
  { name: 'no report is missing', input: { report: null }, expected: { fields: ['bureauReport'] } },
]);

runCases('recent-delinquency', [
  { name: 'a clean file passes', expected: 'pass' },
  { name: 'no record passes', input: { report: report(null) }, expected: 'pass' },
  {
    name: '90 days late 5 months ago fails',
    input: { report: report(640, [account({ worstDelinquencyDays: 90, worstDelinquencyDate: '2025-08-15' })]) },
    expected: { code: 'RECENT_DELINQUENCY' },
  },
  {
    name: '90 days late exactly 12 months ago fails',
    input: { report: report(640, [account({ worstDelinquencyDays: 90, worstDelinquencyDate: '2025-01-15' })]) },
    expected: { code: 'RECENT_DELINQUENCY' },
  },
  {
    name: '90 days late 12 months and a day ago passes',
    input: { report: report(640, [account({ worstDelinquencyDays: 90, worstDelinquencyDate: '2025-01-14' })]) },
    expected: 'pass',
  },
  {
    name: '29 days late last month passes',
    input: { report: report(640, [account({ worstDelinquencyDays: 29, worstDelinquencyDate: '2025-12-15' })]) },
    expected: 'pass',
  },
  {
    name: 'a delinquency without a date counts as recent',
    input: { report: report(640, [account({ worstDelinquencyDays: 60 })]) },
    expected: { code: 'RECENT_DELINQUENCY' },
  },
  {
    name: 'a longer look-back reaches an older delinquency',
    input: { report: report(640, [account({ worstDelinquencyDays: 90, worstDelinquencyDate: '2024-06-01' })]) },
    config: { delinquencyLookbackMonths: 24 },
    expected: { code: 'RECENT_DELINQUENCY' },
  },
  { name: 'no report is missing', input: { report: undefined }, expected: { fields: ['bureauReport'] } },
]);

runCases('term-offered', [
  { name: 'an offered term passes', expected: 'pass' },
  {
    name: 'a term not offered fails',
    input: { loan: { downPayment: 60_000, term: 30 } },
    expected: { code: 'TERM_NOT_OFFERED' },
  },
  {
    name: 'a term beyond the longest fails',
    input: { loan: { downPayment: 60_000, term: 72 } },
    expected: { code: 'TERM_NOT_OFFERED' },
  },
  {
    name: 'no term is missing',
    input: { loan: { downPayment: 60_000, term: null } },
    expected: { fields: ['loanInfo.term'] },
  },
]);

runCases('down-payment-share', [
  { name: 'exactly the minimum share passes', input: { loan: { downPayment: 30_000, term: 48 } }, expected: 'pass' },
  {
    name: 'a centavo less fails',
    input: { loan: { downPayment: 29_999.99, term: 48 } },
    expected: { code: 'LOW_DOWN_PAYMENT' },
  },
  {
    name: 'no record needs the higher share',
    input: { report: report(null), loan: { downPayment: 60_000, term: 48 } },
    expected: { code: 'LOW_DOWN_PAYMENT' },
  },
  {
    name: 'no record with the higher share passes',
    input: { report: report(null), loan: { downPayment: 90_000, term: 48 } },
    expected: 'pass',
  },
  {
    name: 'no record under a REJECT policy only needs the usual share',
    input: { report: report(null), loan: { downPayment: 30_000, term: 48 } },
    config: { noRecordPolicy: 'REJECT' },
    expected: 'pass',
  },
  {
    name: 'a down payment covering the price fails',
    input: { loan: { downPayment: 300_000, term: 48 } },
    expected: { code: 'NOTHING_TO_FINANCE' },
  },
  {
    name: 'a zero down payment fails',
    input: { loan: { downPayment: 0, term: 48 } },
    expected: { code: 'LOW_DOWN_PAYMENT' },
  },
  { name: 'a zero price is missing', input: { vehicle: { price: 0 } }, expected: { fields: ['vehicle.price'] } },
  {
    name: 'no vehicle nor loan lists both',
    input: { vehicle: null, loan: null },
    expected: { fields: ['vehicle.price', 'loanInfo.downPayment'] },
  },
]);

const employed = (financial: NonNullable<RuleInput['financial']>) => ({ financial });

runCases('employment-seniority', [
  { name: 'an employee of almost six years passes', expected: 'pass' },
  {
    name: 'an employee of exactly six months passes',
    input: employed({ employmentType: 'Empleado', startEmploymentDate: '2025-07-15' }),
    expected: 'pass',
  },
  {
    name: 'an employee a day short of six months fails',
    input: employed({ employmentType: 'Empleado', startEmploymentDate: '2025-07-16' }),
    expected: { code: 'INSUFFICIENT_SENIORITY' },
  },
  {
    name: 'a year and month count from the next month',
    input: employed({ employmentType: 'Empleado', startDate: { year: 2025, month: 6 } }),
    expected: 'pass',
  },
  {
    name: 'a year and month too recent fail',
    input: employed({ employmentType: 'Empleado', startDate: { year: 2025, month: 7 } }),
    expected: { code: 'INSUFFICIENT_SENIORITY' },
  },
  {
    name: 'the exact date wins over year and month',
    input: employed({
      employmentType: 'Empleado',
      startEmploymentDate: '2025-12-01',
      startDate: { year: 2010, month: 1 },
    }),
    expected: { code: 'INSUFFICIENT_SENIORITY' },
  },
  {
    name: 'self-employed for a year fails (24 months needed)',
    input: employed({ employmentType: 'Independiente', startEmploymentDate: '2025-01-15' }),
    expected: { code: 'INSUFFICIENT_SENIORITY' },
  },
  {
    name: 'self-employed for three years passes',
    input: employed({ employmentType: 'Independiente', startEmploymentDate: '2023-01-01' }),
    expected: 'pass',
  },
  { name: 'a pensioner needs no start date', input: employed({ employmentType: 'Jubilado' }), expected: 'pass' },
  {
    name: 'an unknown employment type fails',
    input: employed({ employmentType: 'Estudiante' }),
    expected: { code: 'EMPLOYMENT_TYPE_NOT_ACCEPTED' },
  },
  {
    name: 'an employee without a start date is missing it',
    input: employed({ employmentType: 'Empleado' }),
    expected: { fields: ['financial.startEmploymentDate'] },
  },
  {
    name: 'no financial data is missing the type',
    input: { financial: null },
    expected: { fields: ['financial.employmentType'] },
  },
]);

/* 240,000 at 13.9% over 48 months with IVA: 6,816.92 a month; with the 500 card payment 7,316.92, which
   needs an income of 18,292.30 at 40%. A 150,000 down payment brings the loan payment to 4,260.57. */
runCases('payment-to-income', [
  { name: 'payments within 40% of income pass', expected: 'pass' },
  {
    name: 'payments above 40% of income fail',
    input: { financial: { ...sound.financial, income: 18_000 } },
    expected: { code: 'PAYMENT_TO_INCOME' },
  },
  {
    name: 'bureau debts count',
    input: {
      financial: { ...sound.financial, income: 20_000 },
      report: report(780, [account({ monthlyPayment: 2_000 })]),
    },
    expected: { code: 'PAYMENT_TO_INCOME' },
  },
  {
    name: 'without those debts the same income passes',
    input: { financial: { ...sound.financial, income: 20_000 }, report: report(780) },
    expected: 'pass',
  },
  {
    name: 'a larger down payment lowers the payment into range',
    input: { financial: { ...sound.financial, income: 18_000 }, loan: { downPayment: 150_000, term: 48 } },
    expected: 'pass',
  },
  {
    name: 'no income fails',
    input: { financial: { ...sound.financial, income: 0 } },
    expected: { code: 'PAYMENT_TO_INCOME' },
  },
  {
    name: 'a term not offered is left to its own rule',
    input: { loan: { downPayment: 60_000, term: 7 }, financial: { ...sound.financial, income: 1 } },
    expected: 'pass',
  },
  {
    name: 'everything absent lists every field',
    input: { vehicle: null, loan: null, financial: null, report: null },
    expected: {
      fields: ['vehicle.price', 'loanInfo.downPayment', 'loanInfo.term', 'financial.income', 'bureauReport'],
    },
  },
]);

runCases('vehicle-age', [
  { name: 'no limit configured passes without a model year', input: { vehicle: { price: 300_000 } }, expected: 'pass' },
  { name: 'a young vehicle passes the limit', config: { maximumVehicleAgeYears: 10 }, expected: 'pass' },
  {
    name: 'a vehicle too old at the end of the term fails',
    input: { vehicle: { price: 300_000, modelYear: 2018 } },
    config: { maximumVehicleAgeYears: 10 },
    expected: { code: 'VEHICLE_TOO_OLD' },
  },
  {
    name: 'with a limit, no model year is missing',
    input: { vehicle: { price: 300_000 } },
    config: { maximumVehicleAgeYears: 10 },
    expected: { fields: ['vehicle.modelYear'] },
  },
]);

/* A refusal's message is read by the partner and kept after erasure: the threshold, never the applicant's figures. */
const refusals: [rule: string, input: Partial<RuleInput>, figures: string[]][] = [
  ['applicant-age', { birthDate: '2008-01-16' }, ['17', '2008']],
  ['age-at-end-of-term', { birthDate: '1950-01-01' }, ['80', '1950', '48']],
  ['bureau-score', { report: report(540) }, ['540']],
  [
    'recent-delinquency',
    { report: report(780, [account({ worstDelinquencyDays: 93, worstDelinquencyDate: '2025-10-01' })]) },
    ['93', '2025-10-01'],
  ],
  ['employment-seniority', employed({ employmentType: 'Estudiante' }), ['Estudiante']],
  [
    'employment-seniority',
    employed({ employmentType: 'Independiente', startEmploymentDate: '2025-01-15' }),
    ['Independiente', '12 ', '24 '],
  ],
  ['payment-to-income', { financial: { ...sound.financial, income: 18_000 } }, ['18', '6816', '7316', '40.6', '40.7']],
];

for (const [name, input, figures] of refusals) {
  test(`${name}: a refusal's message names the threshold, not ${figures.join(', ')}`, () => {
    const result = rule(name).check({ ...sound, ...input }, base);
    assert.equal(result.status, 'fail', JSON.stringify(result));
    if (result.status !== 'fail') return;
    for (const figure of figures) assert.ok(!result.message.includes(figure), `${figure} in "${result.message}"`);
  });
}

const monthCases = [
  { date: '2026-01-31', months: 1, expected: '2026-02-28' },
  { date: '2024-01-31', months: 1, expected: '2024-02-29' },
  { date: '2026-01-15', months: -12, expected: '2025-01-15' },
  { date: '2026-01-15', months: 60, expected: '2031-01-15' },
  { date: '2026-03-31', months: -13, expected: '2025-02-28' },
] as const;

for (const { date, months, expected } of monthCases) {
  test(`${date} moved ${months} months is ${expected}`, () => assert.equal(addMonths(date, months), expected));
}

test('completed months count whole months only', () => {
  assert.equal(completedMonths('2025-07-15', TODAY), 6);
  assert.equal(completedMonths('2025-07-16', TODAY), 5);
  assert.equal(completedMonths('2026-02-01', TODAY), 0);
  assert.equal(completedMonths('2026-03-20', TODAY), -2);
  assert.equal(startOfMonthAfter(2025, 12), '2026-01-01');
  assert.equal(startOfMonthAfter(2025, 13), null);
});
