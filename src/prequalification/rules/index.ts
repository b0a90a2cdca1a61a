/**
 * The registry: every pre-qualification rule, in the order their reasons are reported. Adding a rule
 * is one file and one line here; thresholds go in config/prequalification.json.
 */
import { ageAtEndOfTerm } from './age-at-end-of-term.ts';
import { applicantAge } from './applicant-age.ts';
import { bureauScore } from './bureau-score.ts';
import { downPaymentShare } from './down-payment-share.ts';
import { employmentSeniority } from './employment-seniority.ts';
import { paymentToIncome } from './payment-to-income.ts';
import { recentDelinquency } from './recent-delinquency.ts';
import type { Rule } from './rule.ts';
import { termOffered } from './term-offered.ts';
import { vehicleAge } from './vehicle-age.ts';

export const rules: readonly Rule[] = [
  applicantAge,
  ageAtEndOfTerm,
  bureauScore,
  recentDelinquency,
  termOffered,
  downPaymentShare,
  employmentSeniority,
  paymentToIncome,
  vehicleAge,
];
