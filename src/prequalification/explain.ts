/**
 * What each pre-qualification rule looked at: its thresholds (from the configuration) and its input
 * values (from the lead and the bureau report). The outcomes and thresholds are stored with the
 * decision; input values hold personal data, so they are derived when an operator reads the lead
 * (and are gone once the lead's personal data is erased).
 */
import { createHash } from 'node:crypto';
import { buildOffer } from './offer.ts';
import type { PrequalificationConfig } from './rules-config.ts';
import { known, type PrequalificationInput, type Rule, type RuleResult } from './rules/rule.ts';

export type Values = Record<string, unknown>;

export interface RuleOutcome {
  rule: string;
  outcome: 'pass' | 'fail' | 'missing';
  threshold: Values;
  reason: { code: string; message: string } | null;
}

const maxDelinquency = (input: PrequalificationInput) =>
  input.report ? Math.max(0, ...input.report.accounts.map((a) => a.worstDelinquencyDays)) : null;

/**
 * This loan's monthly payment (IVA included) as the payment-to-income rule computes it under the rules in
 * force; null when the rule computes none (data missing, nothing to finance, a term not offered).
 */
function loanMonthlyPayment(input: PrequalificationInput, config: PrequalificationConfig): number | null {
  const price = input.vehicle?.price;
  const downPayment = input.loan?.downPayment;
  const term = input.loan?.term;
  const report = input.report;
  if (!known(price) || !known(downPayment) || !known(term) || !report) return null;
  if (!(price > downPayment) || !config.allowedTerms.includes(term)) return null;
  return buildOffer({ price, downPayment, term, report }, config).monthlyPayment;
}

/** Per rule name: which configuration keys are its thresholds, and which lead values it reads. */
const table: Record<
  string,
  {
    threshold: (keyof PrequalificationConfig)[];
    inputs: (input: PrequalificationInput, config: PrequalificationConfig) => Values;
  }
> = {
  'applicant-age': { threshold: ['minimumAge', 'maximumAge'], inputs: (i) => ({ birthDate: i.birthDate ?? null }) },
  'age-at-end-of-term': {
    threshold: ['maximumAgeAtEndOfTerm'],
    inputs: (i) => ({ birthDate: i.birthDate ?? null, term: i.loan?.term ?? null }),
  },
  'bureau-score': {
    threshold: ['minimumScore', 'noRecordPolicy'],
    inputs: (i) => ({ recordFound: i.report?.recordFound ?? null, score: i.report?.score ?? null }),
  },
  'recent-delinquency': {
    threshold: ['maximumDaysPastDue', 'delinquencyLookbackMonths'],
    inputs: (i) => ({
      worstDelinquencyDays: maxDelinquency(i),
      delinquencies:
        i.report?.accounts
          .filter((a) => a.worstDelinquencyDays > 0)
          .map((a) => ({ days: a.worstDelinquencyDays, date: a.worstDelinquencyDate })) ?? null,
    }),
  },
  'term-offered': { threshold: ['allowedTerms'], inputs: (i) => ({ term: i.loan?.term ?? null }) },
  'down-payment-share': {
    threshold: ['minimumDownPaymentShare', 'noRecordMinimumDownPaymentShare', 'noRecordPolicy'],
    inputs: (i) => ({
      price: i.vehicle?.price ?? null,
      downPayment: i.loan?.downPayment ?? null,
      recordFound: i.report?.recordFound ?? null,
    }),
  },
  'employment-seniority': {
    threshold: ['minimumSeniorityMonths'],
    inputs: (i) => ({
      employmentType: i.financial?.employmentType ?? null,
      startEmploymentDate: i.financial?.startEmploymentDate ?? null,
      startDate: i.financial?.startDate ?? null,
    }),
  },
  'payment-to-income': {
    threshold: ['maximumPaymentToIncome'],
    inputs: (i, config) => ({
      price: i.vehicle?.price ?? null,
      downPayment: i.loan?.downPayment ?? null,
      term: i.loan?.term ?? null,
      income: i.financial?.income ?? null,
      reportedMonthlyDebts: i.report
        ? i.report.accounts.reduce((sum, a) => sum + Math.max(0, a.monthlyPayment), 0)
        : null,
      loanMonthlyPayment: loanMonthlyPayment(i, config),
    }),
  },
  'vehicle-age': {
    threshold: ['maximumVehicleAgeYears'],
    inputs: (i) => ({ modelYear: i.vehicle?.modelYear ?? null, term: i.loan?.term ?? null }),
  },
};

/** A short fingerprint of the rules in force: the registry's rule names and the configuration. */
export function rulesVersion(config: PrequalificationConfig, rules: readonly Rule[]): string {
  const hash = createHash('sha256')
    .update(JSON.stringify(rules.map((r) => r.name)))
    .update(JSON.stringify(config));
  return `sha256:${hash.digest('hex').slice(0, 16)}`;
}

export function ruleOutcome(rule: Rule, result: RuleResult, config: PrequalificationConfig): RuleOutcome {
  const threshold: Values = {};
  for (const key of table[rule.name]?.threshold ?? []) threshold[key] = config[key];
  const reason =
    result.status === 'fail'
      ? { code: result.code, message: result.message }
      : result.status === 'missing'
        ? { code: 'MISSING_DATA', message: `Data still needed: ${result.fields.join(', ')}.` }
        : null;
  return { rule: rule.name, outcome: result.status, threshold, reason };
}

/**
 * The values a rule reads from this lead, and what it computes from them under `config` (an empty object
 * for a rule this table does not know).
 */
export function ruleInputs(ruleName: string, input: PrequalificationInput, config: PrequalificationConfig): Values {
  return table[ruleName]?.inputs(input, config) ?? {};
}
