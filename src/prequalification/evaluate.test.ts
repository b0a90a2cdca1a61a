import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxBureau } from '../bureau/sandbox-bureau.ts';
import type { BureauReport } from '../bureau/index.ts';
import { createManualClock } from '../shared/clock.ts';
import { evaluatePrequalification, type PrequalificationResult } from './evaluate.ts';
import {
  loadPrequalificationConfig,
  parsePrequalificationConfig,
  PrequalificationConfigError,
  type PrequalificationConfig,
} from './rules-config.ts';
import { rules } from './rules/index.ts';
import type { PrequalificationInput } from './rules/rule.ts';

const config = loadPrequalificationConfig();
const NOW = new Date('2026-01-15T18:00:00Z'); // noon in Mexico City

/** A report of the sandbox bureau for the profile the homoclave selects. */
async function sandboxReport(homoclave: string): Promise<BureauReport> {
  const bureau = createSandboxBureau(createManualClock(NOW));
  const address = {
    street: 'Reforma',
    number: '10',
    interior: null,
    zipCode: '06600',
    neighborhood: 'Juárez',
    municipality: null,
    state: null,
    city: null,
    stateId: null,
  };
  const result = await bureau.query(
    {
      rfc: `SAND850412${homoclave}0`,
      firstName: 'Ana',
      secondName: '',
      lastName: 'Pérez',
      secondLastName: 'Gómez',
      birthDate: '1985-04-12',
      address,
    },
    new AbortController().signal,
  );
  assert.ok(result.ok);
  return result.value.report;
}

/** Sound numbers: 300,000 car, 60,000 down, 48 months, employee for almost six years, 45,000 a month. */
function application(report: BureauReport, changes: Partial<PrequalificationInput> = {}): PrequalificationInput {
  return {
    birthDate: '1985-04-12',
    loan: { downPayment: 60_000, term: 48 },
    vehicle: { price: 300_000 },
    financial: { employmentType: 'Empleado', startEmploymentDate: '2020-03-01', income: 45_000 },
    report,
    ...changes,
  };
}

const codes = (result: PrequalificationResult) => result.reasons.map((r) => r.code);

test('an A1 applicant with sound numbers is pre-qualified with an offer at the best tier', async () => {
  const { explanation, ...result } = evaluatePrequalification(application(await sandboxReport('A1')), config, NOW);
  assert.ok(
    explanation.rules.every((r) => r.outcome === 'pass'),
    JSON.stringify(explanation),
  );
  assert.deepEqual(result, {
    decision: 'PREQUALIFIED',
    reasons: [],
    // 240,000 at 13.9% over 48 months: 6,816.92 a month with IVA on interest; without IVA 6,546.32,
    // which against 240,000 − 2% commission = 235,200 disbursed gives a CAT of 16.1%.
    offer: { amountFinanced: 240_000, term: 48, annualRate: 13.9, monthlyPayment: 6_816.92, cat: 16.1 },
  });
});

const profileCases = [
  { homoclave: 'B1', decision: 'PREQUALIFIED', reasons: [], rate: 19.9 },
  { homoclave: 'C1', decision: 'NOT_PREQUALIFIED', reasons: ['LOW_SCORE'], rate: null },
  { homoclave: 'D1', decision: 'NOT_PREQUALIFIED', reasons: ['RECENT_DELINQUENCY'], rate: null },
  // 60,000 down is 20% of the price: not enough without a credit record (30% needed).
  { homoclave: 'N1', decision: 'NOT_PREQUALIFIED', reasons: ['LOW_DOWN_PAYMENT'], rate: null },
] as const;

for (const { homoclave, decision, reasons, rate } of profileCases) {
  test(`a ${homoclave} applicant with the same numbers is ${decision} ${reasons.join(', ')}`, async () => {
    const result = evaluatePrequalification(application(await sandboxReport(homoclave)), config, NOW);
    assert.equal(result.decision, decision, JSON.stringify(result));
    assert.deepEqual(codes(result), reasons);
    assert.equal(result.offer?.annualRate ?? null, rate);
  });
}

test('an N1 applicant with the no-record down payment is pre-qualified at the no-record rate', async () => {
  const result = evaluatePrequalification(
    application(await sandboxReport('N1'), { loan: { downPayment: 90_000, term: 48 } }),
    config,
    NOW,
  );
  assert.equal(result.decision, 'PREQUALIFIED', JSON.stringify(result));
  assert.equal(result.offer?.annualRate, 21.9);
});

test('an N1 applicant is refused outright when the thin-file policy is REJECT', async () => {
  const reject: PrequalificationConfig = { ...config, noRecordPolicy: 'REJECT' };
  const result = evaluatePrequalification(
    application(await sandboxReport('N1'), { loan: { downPayment: 90_000, term: 48 } }),
    reject,
    NOW,
  );
  assert.deepEqual([result.decision, codes(result)], ['NOT_PREQUALIFIED', ['NO_CREDIT_RECORD']]);
});

const downPaymentCases = [
  { name: 'a 5% down payment', downPayment: 15_000, income: 40_000, before: ['LOW_DOWN_PAYMENT'], raised: 30_000 },
  {
    name: 'payments of 41.4% of an 18,000 income (6,816.92 + 640 of card)',
    downPayment: 60_000,
    income: 18_000,
    before: ['PAYMENT_TO_INCOME'],
    raised: 150_000,
  },
] as const;

for (const c of downPaymentCases) {
  test(`raising the down payment turns ${c.name} into a pre-qualification`, async () => {
    const report = await sandboxReport('A1');
    const financial = { employmentType: 'Empleado', startEmploymentDate: '2020-03-01', income: c.income };
    const before = evaluatePrequalification(
      application(report, { financial, loan: { downPayment: c.downPayment, term: 48 } }),
      config,
      NOW,
    );
    assert.deepEqual([before.decision, codes(before), before.offer], ['NOT_PREQUALIFIED', c.before, null]);
    const after = evaluatePrequalification(
      application(report, { financial, loan: { downPayment: c.raised, term: 48 } }),
      config,
      NOW,
    );
    assert.equal(after.decision, 'PREQUALIFIED', JSON.stringify(after));
    assert.equal(after.offer?.amountFinanced, 300_000 - c.raised);
  });
}

test('missing data makes the decision INCOMPLETE and names every missing field once', async () => {
  const result = evaluatePrequalification(
    application(await sandboxReport('A1'), { financial: null, loan: { downPayment: 60_000 } }),
    config,
    NOW,
  );
  assert.equal(result.decision, 'INCOMPLETE');
  assert.equal(result.offer, null);
  assert.deepEqual(codes(result), ['MISSING_DATA']);
  assert.equal(
    result.reasons[0].message,
    'Data still needed: loanInfo.term, financial.employmentType, financial.income.',
  );
});

test('a lead with nothing but a report is INCOMPLETE, not refused', async () => {
  const result = evaluatePrequalification({ report: await sandboxReport('A1') }, config, NOW);
  assert.equal(result.decision, 'INCOMPLETE');
});

test('a definitive failure wins over missing data, and the missing data is still listed', async () => {
  const result = evaluatePrequalification(application(await sandboxReport('C1'), { financial: null }), config, NOW);
  assert.deepEqual([result.decision, codes(result)], ['NOT_PREQUALIFIED', ['LOW_SCORE', 'MISSING_DATA']]);
});

test('every failing reason is given, in the order of the registry', async () => {
  const result = evaluatePrequalification(
    application(await sandboxReport('D1'), { birthDate: '1955-06-01', loan: { downPayment: 10_000, term: 72 } }),
    config,
    NOW,
  );
  assert.deepEqual(codes(result), ['AGE_AT_END_OF_TERM', 'RECENT_DELINQUENCY', 'TERM_NOT_OFFERED', 'LOW_DOWN_PAYMENT']);
});

test('today is read in Mexico City: at 03:00 UTC a birthday there has not come yet', async () => {
  const report = await sandboxReport('A1');
  const lateEvening = new Date('2026-01-16T03:00:00Z'); // 21:00 on the 15th in Mexico City
  // Turning 71, one year over the maximum age of 70, on the 16th.
  const input = application(report, { birthDate: '1955-01-16' });
  assert.deepEqual(codes(evaluatePrequalification(input, config, lateEvening)), []);
  assert.deepEqual(codes(evaluatePrequalification(input, config, new Date('2026-01-16T07:00:00Z'))), [
    'AGE_OUT_OF_RANGE',
  ]);
});

test('with a registry lacking the data rules, a missing price still keeps the offer back', async () => {
  const onlyScore = rules.filter((r) => r.name === 'bureau-score');
  const result = evaluatePrequalification(
    application(await sandboxReport('A1'), { vehicle: null }),
    config,
    NOW,
    onlyScore,
  );
  assert.deepEqual([result.decision, result.reasons[0].message], ['INCOMPLETE', 'Data still needed: vehicle.price.']);
});

test('the shipped config file is valid', () => {
  assert.equal(config.ivaRate, 0.16);
  assert.deepEqual(config.allowedTerms, [12, 24, 36, 48, 60]);
});

const badConfigCases = [
  { name: 'a missing key', change: (c: Record<string, unknown>) => delete c.minimumScore, key: 'minimumScore' },
  { name: 'an unknown key', change: (c: Record<string, unknown>) => (c.minimumScor = 600), key: 'minimumScor' },
  {
    name: 'a share above 1',
    change: (c: Record<string, unknown>) => (c.minimumDownPaymentShare = 10),
    key: 'minimumDownPaymentShare',
  },
  {
    name: 'an unknown policy',
    change: (c: Record<string, unknown>) => (c.noRecordPolicy = 'MAYBE'),
    key: 'noRecordPolicy',
  },
  {
    name: 'a fractional term',
    change: (c: Record<string, unknown>) => (c.allowedTerms = [12, 24.5]),
    key: 'allowedTerms.1',
  },
  {
    name: 'a missing employment type',
    change: (c: Record<string, unknown>) => (c.minimumSeniorityMonths = { Empleado: 6, Independiente: 24 }),
    key: 'minimumSeniorityMonths.Jubilado',
  },
  {
    name: 'a tier rate as a percent string',
    change: (c: Record<string, unknown>) => (c.riskTiers = [{ minimumScore: 620, annualRate: '19.9' }]),
    key: 'riskTiers.0.annualRate',
  },
  {
    name: 'tiers out of order',
    change: (c: Record<string, unknown>) =>
      (c.riskTiers = [
        { minimumScore: 620, annualRate: 0.2 },
        { minimumScore: 740, annualRate: 0.14 },
      ]),
    key: 'riskTiers',
  },
  {
    name: 'tiers not reaching the minimum score',
    change: (c: Record<string, unknown>) => (c.riskTiers = [{ minimumScore: 700, annualRate: 0.2 }]),
    key: 'riskTiers',
  },
  {
    name: 'a maximum age under the minimum',
    change: (c: Record<string, unknown>) => Object.assign(c, { minimumAge: 30, maximumAge: 25 }),
    key: 'maximumAge',
  },
  {
    name: 'a thin-file share under the usual one',
    change: (c: Record<string, unknown>) => (c.noRecordMinimumDownPaymentShare = 0.05),
    key: 'noRecordMinimumDownPaymentShare',
  },
] as const;

for (const { name, change, key } of badConfigCases) {
  test(`a config with ${name} is refused naming "${key}"`, () => {
    const copy = structuredClone(config) as unknown as Record<string, unknown>;
    change(copy);
    assert.throws(
      () => parsePrequalificationConfig(copy, 'test.json'),
      (error: unknown) => {
        assert.ok(error instanceof PrequalificationConfigError, String(error));
        assert.equal(error.key, key, error.message);
        assert.match(error.message, /test\.json/);
        return true;
      },
    );
  });
}

test('a config file that is not JSON is refused naming the file', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'prequal-')), 'bad.json');
  writeFileSync(path, '{ "minimumAge": 18, }');
  assert.throws(() => loadPrequalificationConfig(path), /bad\.json.*cannot be read as JSON/);
});

test('the explanation gives every rule its outcome, thresholds and reason, and the version of the rules', async () => {
  const result = evaluatePrequalification(
    application(await sandboxReport('C1'), { loan: { downPayment: 10_000, term: 48 } }),
    config,
    NOW,
  );
  assert.deepEqual(codes(result), ['LOW_SCORE', 'LOW_DOWN_PAYMENT']);
  const { rulesVersion, rules: explained } = result.explanation;
  assert.match(rulesVersion, /^sha256:[0-9a-f]{16}$/);
  assert.deepEqual(
    explained.map((r) => r.rule),
    rules.map((r) => r.name),
  );
  const byRule = Object.fromEntries(explained.map((r) => [r.rule, r]));
  assert.equal(byRule['bureau-score'].outcome, 'fail');
  assert.equal(byRule['bureau-score'].reason?.code, 'LOW_SCORE');
  assert.deepEqual(byRule['bureau-score'].threshold, {
    minimumScore: config.minimumScore,
    noRecordPolicy: config.noRecordPolicy,
  });
  assert.equal(byRule['down-payment-share'].outcome, 'fail');
  assert.equal(byRule['down-payment-share'].threshold.minimumDownPaymentShare, config.minimumDownPaymentShare);
  assert.deepEqual(byRule['term-offered'], {
    rule: 'term-offered',
    outcome: 'pass',
    threshold: { allowedTerms: config.allowedTerms },
    reason: null,
  });
  const changed = { ...config, minimumScore: config.minimumScore + 1 };
  assert.notEqual(
    evaluatePrequalification(application(await sandboxReport('C1')), changed, NOW).explanation.rulesVersion,
    rulesVersion,
  );
});

test('a rule still missing data is explained as missing, with the fields it needs', async () => {
  const result = evaluatePrequalification(application(await sandboxReport('A1'), { financial: null }), config, NOW);
  const seniority = result.explanation.rules.find((r) => r.rule === 'employment-seniority');
  assert.deepEqual(seniority?.outcome, 'missing');
  assert.deepEqual(seniority?.reason, {
    code: 'MISSING_DATA',
    message: 'Data still needed: financial.employmentType.',
  });
});
