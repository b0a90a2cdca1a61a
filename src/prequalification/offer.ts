/**
 * Loan math: French amortization (equal monthly payments) and the CAT (Costo Anual Total).
 *
 * In Mexico IVA (VAT) is charged on the interest of a consumer loan, so the payment a borrower makes
 * uses the monthly rate r = annualRate / 12 × (1 + IVA). The CAT, by Banxico's rules (Circular
 * 21/2009), is computed WITHOUT IVA, over the payments without IVA and the amount actually disbursed
 * (principal minus upfront commissions), and published as a percentage with one decimal.
 */
import type { BureauReport } from '../bureau/index.ts';
import type { PrequalificationConfig } from './rules-config.ts';
import { hasCreditRecord } from './rules/rule.ts';

export interface Offer {
  amountFinanced: number;
  /** Months. */
  term: number;
  /** Annual interest rate in percent, before IVA (13.9 = 13.9%). */
  annualRate: number;
  /** Monthly payment in MXN, IVA on interest included. */
  monthlyPayment: number;
  /** Costo Anual Total in percent with one decimal, without IVA. */
  cat: number;
}

export interface OfferTerms {
  price: number;
  downPayment: number;
  term: number;
  report: BureauReport;
}

/** Money is rounded to centavos, half away from zero. */
export function roundMoney(amount: number): number {
  return (Math.sign(amount) * Math.round(Math.abs(amount) * 100 + 1e-7)) / 100;
}

/**
 * Equal monthly payment of a French amortization, rounded to centavos:
 * P = L × r / (1 − (1 + r)^−n), with r = annualRate / 12 × (1 + ivaRate). Rates are fractions.
 */
export function monthlyPayment(principal: number, annualRate: number, termMonths: number, ivaRate: number): number {
  if (!Number.isInteger(termMonths) || termMonths < 1) throw new RangeError('termMonths must be a positive integer');
  const r = (annualRate / 12) * (1 + ivaRate);
  if (r === 0) return roundMoney(principal / termMonths);
  return roundMoney((principal * r) / (1 - (1 + r) ** -termMonths));
}

/** Σ_{j=1..n} payment / (1 + i)^(j/12) − disbursed: decreasing in i, zero at the CAT. */
function netPresentValue(i: number, payment: number, termMonths: number, disbursed: number): number {
  let sum = 0;
  for (let j = 1; j <= termMonths; j++) sum += payment / (1 + i) ** (j / 12);
  return sum - disbursed;
}

/**
 * The annual rate i (a fraction) solving Σ_{j=1..n} A / (1 + i)^(j/12) = principal − commission,
 * found by bisection to well under 0.1 basis point.
 */
export function solveCatRate(
  principal: number,
  openingCommission: number,
  paymentWithoutIva: number,
  termMonths: number,
): number {
  const disbursed = principal - openingCommission;
  if (!(disbursed > 0) || !(paymentWithoutIva > 0))
    throw new RangeError('the CAT needs a positive disbursement and payment');
  const npv = (i: number) => netPresentValue(i, paymentWithoutIva, termMonths, disbursed);
  let low = -0.99;
  let high = 1;
  while (npv(high) > 0 && high < 1e6) high *= 2;
  // 1e-9 is 0.001 basis points: far below the one decimal of a percent that is published.
  while (high - low > 1e-9) {
    const mid = (low + high) / 2;
    if (npv(mid) > 0) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/** The CAT as Banxico publishes it: percent, one decimal (12.68…% → 12.7). */
export function cat(
  principal: number,
  openingCommission: number,
  monthlyPaymentWithoutIva: number,
  termMonths: number,
): number {
  const rate = solveCatRate(principal, openingCommission, monthlyPaymentWithoutIva, termMonths);
  return Math.round(rate * 1000 + 1e-9) / 10;
}

/**
 * The annual rate (fraction) of the applicant's risk tier: the first tier whose minimum score the
 * score reaches; below every tier, the costliest one (the score rule refuses those anyway).
 */
export function annualRateFor(report: BureauReport, config: PrequalificationConfig): number {
  if (!hasCreditRecord(report)) return config.noRecordAnnualRate;
  const score = report.score as number;
  const tier = config.riskTiers.find((t) => score >= t.minimumScore);
  return (tier ?? config.riskTiers[config.riskTiers.length - 1]).annualRate;
}

/** The offer for a loan of price − downPayment over `term` months; requires price > downPayment. */
export function buildOffer(terms: OfferTerms, config: PrequalificationConfig): Offer {
  const amountFinanced = roundMoney(terms.price - terms.downPayment);
  if (!(amountFinanced > 0)) throw new RangeError('nothing to finance');
  const rate = annualRateFor(terms.report, config);
  const commission = roundMoney(amountFinanced * config.openingCommissionShare);
  const paymentWithoutIva = monthlyPayment(amountFinanced, rate, terms.term, 0);
  return {
    amountFinanced,
    term: terms.term,
    annualRate: Math.round(rate * 10000) / 100,
    monthlyPayment: monthlyPayment(amountFinanced, rate, terms.term, config.ivaRate),
    cat: cat(amountFinanced, commission, paymentWithoutIva, terms.term),
  };
}
