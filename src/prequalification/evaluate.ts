/**
 * Pre-qualification: runs every rule of the registry over what the lead knows and turns the
 * results into a decision, its reasons and, when pre-qualified, an offer.
 *
 * A definitive failure wins over missing data: a partner learns at once that a lead fails (for
 * every failing reason), and the data still missing is listed too, so nothing is hidden. Only when
 * nothing fails but something is missing is the decision INCOMPLETE; it is evaluated again when
 * that data arrives.
 */
import { isoDateInMexico } from '../shared/index.ts';
import { buildOffer, type Offer } from './offer.ts';
import type { PrequalificationConfig } from './rules-config.ts';
import { rules as registry } from './rules/index.ts';
import {
  absent,
  FIELD,
  known,
  type PrequalificationInput,
  type ReasonCode,
  type Rule,
  type RuleInput,
} from './rules/rule.ts';
import { ruleOutcome, rulesVersion, type RuleOutcome } from './explain.ts';

export type { Offer } from './offer.ts';
export type { PrequalificationInput } from './rules/rule.ts';

export const DECISIONS = ['PREQUALIFIED', 'NOT_PREQUALIFIED', 'INCOMPLETE'] as const;
export type Decision = (typeof DECISIONS)[number];

export const MISSING_DATA = 'MISSING_DATA';

export interface Reason {
  code: ReasonCode | typeof MISSING_DATA;
  message: string;
}

export interface PrequalificationResult {
  decision: Decision;
  reasons: Reason[];
  offer: Offer | null;
  /** Each rule's outcome and thresholds, and the version of the rules that decided. */
  explanation: { rulesVersion: string; rules: RuleOutcome[] };
}

function missingReason(fields: string[]): Reason {
  return { code: MISSING_DATA, message: `Data still needed: ${fields.join(', ')}.` };
}

/** The offer, or the fields it still lacks (when a registry without some rule let it through). */
function offerOrMissing(input: PrequalificationInput, config: PrequalificationConfig): Offer | string[] {
  const price = input.vehicle?.price;
  const downPayment = input.loan?.downPayment;
  const term = input.loan?.term;
  const { report } = input;
  if (!known(price) || !known(downPayment) || !known(term) || !report) {
    return absent(
      [known(price), FIELD.price],
      [known(downPayment), FIELD.downPayment],
      [known(term), FIELD.term],
      [Boolean(report), FIELD.report],
    );
  }
  return buildOffer({ price, downPayment, term, report }, config);
}

/**
 * Evaluates the lead on `today` (read as a Mexico City calendar date). `rules` defaults to the
 * registry; tests and future products may pass another list.
 */
export function evaluatePrequalification(
  input: PrequalificationInput,
  config: PrequalificationConfig,
  today: Date,
  rules: readonly Rule[] = registry,
): PrequalificationResult {
  const ruleInput: RuleInput = { ...input, today: isoDateInMexico(today) };
  const failures: Reason[] = [];
  const missingFields = new Set<string>();
  const outcomes: RuleOutcome[] = [];
  for (const rule of rules) {
    const result = rule.check(ruleInput, config);
    outcomes.push(ruleOutcome(rule, result, config));
    if (result.status === 'fail') failures.push({ code: result.code, message: result.message });
    if (result.status === 'missing') result.fields.forEach((field) => missingFields.add(field));
  }
  const missing = [...missingFields];
  const explanation = { rulesVersion: rulesVersion(config, rules), rules: outcomes };
  if (failures.length) {
    return {
      decision: 'NOT_PREQUALIFIED',
      reasons: missing.length ? [...failures, missingReason(missing)] : failures,
      offer: null,
      explanation,
    };
  }
  if (missing.length) return { decision: 'INCOMPLETE', reasons: [missingReason(missing)], offer: null, explanation };
  const offer = offerOrMissing(input, config);
  if (Array.isArray(offer))
    return { decision: 'INCOMPLETE', reasons: [missingReason(offer)], offer: null, explanation };
  return { decision: 'PREQUALIFIED', reasons: [], offer, explanation };
}
