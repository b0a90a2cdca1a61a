import { parseIsoDate } from '../../shared/index.ts';
import { completedMonths, startOfMonthAfter } from './calendar.ts';
import {
  EMPLOYMENT_TYPES,
  FIELD,
  fail,
  missing,
  pass,
  type EmploymentType,
  type PrequalificationInput,
  type Rule,
} from './rule.ts';

type Financial = NonNullable<PrequalificationInput['financial']>;

function isEmploymentType(value: string): value is EmploymentType {
  return (EMPLOYMENT_TYPES as readonly string[]).includes(value);
}

/**
 * When the applicant started: the exact date when given, otherwise the year and month (counted
 * from the following month, so an unknown day never adds seniority).
 */
function employmentStart(financial: Financial): string | null {
  const date = financial.startEmploymentDate;
  if (date) return parseIsoDate(date) ? date : null;
  const start = financial.startDate;
  return start ? startOfMonthAfter(start.year, start.month) : null;
}

/** The applicant has held the current employment (or business, or pension) long enough. */
export const employmentSeniority: Rule = {
  name: 'employment-seniority',
  check(input, config) {
    const financial = input.financial;
    const type = financial?.employmentType;
    if (!financial || !type) return missing(FIELD.employmentType);
    if (!isEmploymentType(type)) {
      return fail('EMPLOYMENT_TYPE_NOT_ACCEPTED', "The applicant's employment type is not accepted.");
    }
    const minimum = config.minimumSeniorityMonths[type];
    // No minimum (pensioners, by default): the start date is not needed at all.
    if (minimum === 0) return pass;
    const start = employmentStart(financial);
    if (!start) return missing(FIELD.startEmploymentDate);
    const months = completedMonths(start, input.today);
    if (months < minimum) {
      return fail(
        'INSUFFICIENT_SENIORITY',
        "The applicant's time in their current activity is under the minimum for their employment type.",
      );
    }
    return pass;
  },
};
