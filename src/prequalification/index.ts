/**
 * Pre-qualification, pure: what a lead knows and its bureau report in, with the rules' thresholds and
 * today's date; the decision, its reasons, the offer and the rule-by-rule explanation out. It reads
 * no database and knows nothing of leads: the leads module applies it to a lead.
 */
export {
  evaluatePrequalification,
  DECISIONS,
  MISSING_DATA,
  type PrequalificationInput,
  type PrequalificationResult,
  type Reason,
} from './evaluate.ts';
export { ruleInputs } from './explain.ts';
export { catDisclosure } from './cat-disclosure.ts';
export { ERASED_REASON_MESSAGES, REASON_CODES } from './rules/rule.ts';
export { loadPrequalificationConfig, type PrequalificationConfig } from './rules-config.ts';
