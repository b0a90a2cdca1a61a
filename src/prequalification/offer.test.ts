import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BureauReport } from '../bureau/index.ts';
import { annualRateFor, buildOffer, cat, monthlyPayment, roundMoney, solveCatRate } from './offer.ts';
import { loadPrequalificationConfig } from './rules-config.ts';

const config = loadPrequalificationConfig();

/** Σ_{j=1..n} A / (1 + i)^(j/12) − disbursed, written again here so the test does not trust offer.ts. */
function npv(annualRate: number, payment: number, months: number, disbursed: number): number {
  let sum = 0;
  for (let j = 1; j <= months; j++) sum += payment * (1 + annualRate) ** (-j / 12);
  return sum - disbursed;
}

/*
 * Hand-computed payments.
 * 1. 100,000 at 12% for 12 months, no IVA: r = 0.12 / 12 = 0.01; (1.01)^12 = 1.126825;
 *    P = 100,000 × 0.01 / (1 − 1 / 1.126825) = 1,000 / 0.1125508 = 8,884.8789 → 8,884.88.
 * 2. The same with IVA 16% on interest: r = 0.01 × 1.16 = 0.0116; (1.0116)^12 = 1.148433;
 *    P = 1,160 / (1 − 1 / 1.148433) = 1,160 / 0.1292487 = 8,974.948 → 8,974.95.
 * 3. No interest: 12,000 / 12 = 1,000 whatever the IVA.
 */
const paymentCases = [
  { principal: 100_000, annualRate: 0.12, term: 12, iva: 0, expected: 8_884.88 },
  { principal: 100_000, annualRate: 0.12, term: 12, iva: 0.16, expected: 8_974.95 },
  { principal: 12_000, annualRate: 0, term: 12, iva: 0.16, expected: 1_000 },
  { principal: 1_000, annualRate: 0.12, term: 1, iva: 0, expected: 1_010 },
] as const;

for (const { principal, annualRate, term, iva, expected } of paymentCases) {
  test(
    `${principal} at ${annualRate * 100}% over ${term} ` + `months with IVA ${iva * 100}% pays ${expected} a month`,
    () => {
      assert.equal(monthlyPayment(principal, annualRate, term, iva), expected);
    },
  );
}

test('the payments of a French amortization repay the principal at the monthly rate', () => {
  const r = (0.139 / 12) * 1.16;
  const payment = monthlyPayment(250_000, 0.139, 60, 0.16);
  let presentValue = 0;
  for (let j = 1; j <= 60; j++) presentValue += payment / (1 + r) ** j;
  assert.ok(Math.abs(presentValue - 250_000) < 0.6, String(presentValue)); // centavo rounding × 60
});

test('monthlyPayment refuses a term that is not a positive whole number of months', () => {
  assert.throws(() => monthlyPayment(1_000, 0.1, 0, 0), RangeError);
  assert.throws(() => monthlyPayment(1_000, 0.1, 1.5, 0), RangeError);
});

/*
 * Hand-computed CAT.
 * A. 100,000, 12 months of 8,884.88 (12% a year, no commission): the payments discount to the
 *    principal at 1% a month, so the annual rate is (1.01)^12 − 1 = 0.126825 = 12.68% → 12.7.
 * B. The same with a 2% opening commission: 98,000 is disbursed. Solving 8,884.88 × a(m, 12) = 98,000
 *    for the monthly rate m: a = 11.0299; at m = 1.32%, a = (1 − 1.0132^−12) / 0.0132 = 11.0305, so
 *    m ≈ 1.3201% and CAT = 1.013201^12 − 1 ≈ 17.06% → 17.1.
 * C. No interest and no commission: the payments add up to the principal, CAT 0.0.
 */
const catCases = [
  { principal: 100_000, commission: 0, payment: 8_884.88, term: 12, expected: 12.7 },
  { principal: 100_000, commission: 2_000, payment: 8_884.88, term: 12, expected: 17.1 },
  { principal: 12_000, commission: 0, payment: 1_000, term: 12, expected: 0 },
  { principal: 250_000, commission: 5_000, payment: 5_804.11, term: 60, expected: 15.9 },
] as const;

for (const { principal, commission, payment, term, expected } of catCases) {
  test(`the CAT of ${principal} less ${commission} repaid by ${term} payments of ${payment} is ${expected}%`, () => {
    assert.equal(cat(principal, commission, payment, term), expected);
    // The published value is the true rate rounded: the rate lies within ±0.05 points of it.
    const disbursed = principal - commission;
    assert.ok(npv((expected - 0.05) / 100, payment, term, disbursed) >= 0);
    assert.ok(npv((expected + 0.05) / 100, payment, term, disbursed) <= 0);
  });
}

test('the CAT rate solves the Banxico equation to within 0.1 basis point', () => {
  const rate = solveCatRate(100_000, 0, 8_884.88, 12);
  assert.ok(Math.abs(rate - (1.01 ** 12 - 1)) < 1e-5, String(rate));
  assert.ok(npv(rate - 1e-5, 8_884.88, 12, 100_000) > 0 && npv(rate + 1e-5, 8_884.88, 12, 100_000) < 0);
});

test('the CAT refuses a loan where nothing is disbursed', () => {
  assert.throws(() => cat(1_000, 1_000, 100, 12), RangeError);
});

const roundCases = [
  { amount: 1.005, expected: 1.01 },
  { amount: 8_884.87886, expected: 8_884.88 },
  { amount: -2.675, expected: -2.68 },
  { amount: 10, expected: 10 },
] as const;

for (const { amount, expected } of roundCases) {
  test(`money ${amount} rounds to ${expected}`, () => assert.equal(roundMoney(amount), expected));
}

function report(score: number | null): BureauReport {
  return {
    provider: 'sandbox',
    folio: 'F',
    queriedAt: '2026-01-15T12:00:00.000Z',
    recordFound: score !== null,
    score,
    accounts: [],
    inquiries: [],
  };
}

const tierCases = [
  { score: 800, rate: 0.139 },
  { score: 740, rate: 0.139 },
  { score: 739, rate: 0.169 },
  { score: 680, rate: 0.169 },
  { score: 620, rate: 0.199 },
  { score: 500, rate: 0.199 },
  { score: null, rate: 0.219 },
] as const;

for (const { score, rate } of tierCases) {
  test(`a score of ${score} gets the ${rate * 100}% tier`, () =>
    assert.equal(annualRateFor(report(score), config), rate));
}

test('an offer finances price − down payment at the tier rate, with IVA in the payment and not in the CAT', () => {
  const offer = buildOffer({ price: 300_000, downPayment: 50_000, term: 60, report: report(780) }, config);
  assert.deepEqual(offer, {
    amountFinanced: 250_000,
    term: 60,
    annualRate: 13.9,
    monthlyPayment: monthlyPayment(250_000, 0.139, 60, 0.16),
    cat: cat(250_000, 5_000, monthlyPayment(250_000, 0.139, 60, 0), 60),
  });
  assert.equal(offer.cat, 15.9);
});
