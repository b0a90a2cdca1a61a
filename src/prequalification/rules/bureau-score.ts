import { FIELD, fail, hasCreditRecord, missing, pass, type Rule } from './rule.ts';

/**
 * The bureau score reaches the minimum. Applicants with no credit record (a "thin file") follow the
 * configured policy: refused outright, or accepted here and held to a higher down payment by the
 * down-payment rule.
 */
export const bureauScore: Rule = {
  name: 'bureau-score',
  check(input, config) {
    const report = input.report;
    if (!report) return missing(FIELD.report);
    if (!hasCreditRecord(report)) {
      if (config.noRecordPolicy === 'REJECT') {
        return fail('NO_CREDIT_RECORD', 'The credit bureau has no record of the applicant.');
      }
      return pass;
    }
    const score = report.score as number;
    if (score < config.minimumScore) {
      return fail('LOW_SCORE', `The bureau score is below the minimum of ${config.minimumScore}.`);
    }
    return pass;
  },
};
