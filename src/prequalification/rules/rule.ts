/**
 * The shape every pre-qualification rule shares. A rule is a small pure function: it reads the
 * lead's data and the configured thresholds and says pass, fail (with a stable reason code), or
 * which fields it still needs. New rules plug in through the registry in index.ts.
 */
import { parseIsoDate } from '../../shared/index.ts';
import type { BureauReport } from '../../bureau/index.ts';
import type { PrequalificationConfig } from '../rules-config.ts';

export const EMPLOYMENT_TYPES = ['Empleado', 'Independiente', 'Jubilado'] as const;
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];

/** What the lead knows; every part may still be missing (null when a section was never saved). */
export interface PrequalificationInput {
  birthDate?: string | null;
  loan?: { downPayment?: number | null; term?: number | null } | null;
  vehicle?: { price?: number | null; modelYear?: number | null } | null;
  financial?: {
    employmentType?: string | null;
    startEmploymentDate?: string | null;
    startDate?: { year: number; month: number } | null;
    /** Monthly income, MXN. */
    income?: number | null;
  } | null;
  report?: BureauReport | null;
}

/** The input as rules see it: with the evaluation date (YYYY-MM-DD, Mexico City) fixed once. */
export interface RuleInput extends PrequalificationInput {
  today: string;
}

/**
 * Names used in `missing.fields`: the lead's sections and fields as a partner reads them on
 * GET /leads/{leadId}, so the partner knows exactly which operation to call.
 */
export const FIELD = {
  birthDate: 'person.birthDate',
  downPayment: 'loanInfo.downPayment',
  term: 'loanInfo.term',
  price: 'vehicle.price',
  modelYear: 'vehicle.modelYear',
  employmentType: 'financial.employmentType',
  startEmploymentDate: 'financial.startEmploymentDate',
  income: 'financial.income',
  report: 'bureauReport',
} as const;

export const REASON_CODES = [
  'AGE_OUT_OF_RANGE',
  'AGE_AT_END_OF_TERM',
  'LOW_SCORE',
  'NO_CREDIT_RECORD',
  'RECENT_DELINQUENCY',
  'LOW_DOWN_PAYMENT',
  'NOTHING_TO_FINANCE',
  'TERM_NOT_OFFERED',
  'EMPLOYMENT_TYPE_NOT_ACCEPTED',
  'INSUFFICIENT_SENIORITY',
  'PAYMENT_TO_INCOME',
  'VEHICLE_TOO_OLD',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/**
 * The messages a lead keeps once its personal data is erased, for the reasons whose messages read the
 * applicant's data: decisions stored by earlier versions named the applicant's age, score, days past due,
 * employment type, months employed or payments in them. The other reasons' messages name only the loan,
 * the vehicle and the thresholds, which the lead keeps.
 */
export const ERASED_REASON_MESSAGES: Partial<Record<ReasonCode, string>> = Object.freeze({
  AGE_OUT_OF_RANGE: "The applicant's age is outside the accepted range.",
  AGE_AT_END_OF_TERM: "The applicant's age at the end of the term is over the maximum.",
  LOW_SCORE: 'The bureau score is below the minimum.',
  RECENT_DELINQUENCY: 'An account was past due longer than accepted in the look-back period.',
  EMPLOYMENT_TYPE_NOT_ACCEPTED: "The applicant's employment type is not accepted.",
  INSUFFICIENT_SENIORITY:
    "The applicant's time in their current activity is under the minimum for their employment type.",
  PAYMENT_TO_INCOME: 'The monthly payments would take more than the accepted share of the income.',
});

export type RuleResult =
  { status: 'pass' } | { status: 'fail'; code: ReasonCode; message: string } | { status: 'missing'; fields: string[] };

export interface Rule {
  /** Stable name, kebab-case, the same as the rule's file. */
  readonly name: string;
  readonly check: (input: RuleInput, config: PrequalificationConfig) => RuleResult;
}

/** Frozen: one shared value, so no rule can change what another returns. */
export const pass: RuleResult = Object.freeze({ status: 'pass' });

/**
 * A refusal. Its message names the rule and the lender's threshold, never the applicant's own figures
 * (age, score, days past due, employment, income): the partner reads it on the lead, and the lead keeps
 * it in plain text after its personal data is erased. The lender sees the figures as the rule's inputs
 * while the data is held.
 */
export function fail(code: ReasonCode, message: string): RuleResult {
  return { status: 'fail', code, message };
}

export function missing(...fields: string[]): RuleResult {
  return { status: 'missing', fields };
}

/** The fields among `checks` whose value is not present yet. */
export function absent(...checks: Array<[present: boolean, field: string]>): string[] {
  return checks.filter(([present]) => !present).map(([, field]) => field);
}

/** A number the partner actually sent (null, undefined and NaN are all "not known yet"). */
export function known(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A birth date a rule can compute with; anything else is treated as not given yet. */
export function knownDate(value: string | null | undefined): value is string {
  return typeof value === 'string' && parseIsoDate(value) !== null;
}

/**
 * A term other rules can project dates with. Any other term fails `term-offered`; the rules that
 * look ahead by the term then leave the decision to it instead of computing with nonsense.
 */
export function wholeTerm(term: number): boolean {
  return Number.isInteger(term) && term > 0;
}

/** A credit record exists only with a score: a record without one cannot be tiered. */
export function hasCreditRecord(report: BureauReport): boolean {
  return report.recordFound && report.score !== null;
}
