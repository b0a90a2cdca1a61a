/** Birth dates of loan applicants: real, not in the future, adult, plausible. */
import { ageOn, compareDates, formatIsoDate, parseIsoDate, toCalendarDate } from '../shared/index.ts';

export const MINIMUM_AGE = 18;
/** Beyond this the date is almost certainly a typing error (e.g. 1925 for 1995). */
export const MAXIMUM_AGE = 100;

export type BirthDateCheck = { ok: true; date: string; age: number } | { ok: false; errorDetail: string };

/** Validates a person's birth date for a loan application: real, not future, adult, plausible. */
export function checkBirthDate(value: string, today: Date): BirthDateCheck {
  const birth = parseIsoDate(value);
  if (!birth) return { ok: false, errorDetail: 'must be a real calendar date in the format YYYY-MM-DD' };
  const todayDate = toCalendarDate(today);
  if (compareDates(birth, todayDate) > 0) return { ok: false, errorDetail: 'must not be in the future' };
  const age = ageOn(value, formatIsoDate(todayDate));
  if (age < MINIMUM_AGE) return { ok: false, errorDetail: `the person must be at least ${MINIMUM_AGE} years old` };
  if (age > MAXIMUM_AGE) return { ok: false, errorDetail: `an age over ${MAXIMUM_AGE} years is not plausible` };
  return { ok: true, date: value, age };
}
