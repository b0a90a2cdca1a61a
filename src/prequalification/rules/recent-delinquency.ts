import { addMonths } from './calendar.ts';
import { FIELD, fail, missing, pass, type Rule } from './rule.ts';

/**
 * No account was more than the allowed days past due within the look-back window. An account whose
 * worst delinquency has no date is treated as recent: the bureau could not say it is old.
 */
export const recentDelinquency: Rule = {
  name: 'recent-delinquency',
  check(input, config) {
    const report = input.report;
    if (!report) return missing(FIELD.report);
    const since = addMonths(input.today, -config.delinquencyLookbackMonths);
    const late = report.accounts.some(
      (account) =>
        account.worstDelinquencyDays > config.maximumDaysPastDue &&
        (account.worstDelinquencyDate === null || account.worstDelinquencyDate >= since),
    );
    if (late) {
      return fail(
        'RECENT_DELINQUENCY',
        `An account was more than ${config.maximumDaysPastDue} days past due in the last ` +
          `${config.delinquencyLookbackMonths} months.`,
      );
    }
    return pass;
  },
};
