import { ageOn } from '../../shared/index.ts';
import { addMonths } from './calendar.ts';
import { FIELD, absent, fail, known, knownDate, missing, pass, wholeTerm, type Rule } from './rule.ts';

/** The applicant is not older than the limit (whole years) on the day of the last payment. */
export const ageAtEndOfTerm: Rule = {
  name: 'age-at-end-of-term',
  check(input, config) {
    const { birthDate } = input;
    const term = input.loan?.term;
    if (!knownDate(birthDate) || !known(term)) {
      return missing(...absent([knownDate(birthDate), FIELD.birthDate], [known(term), FIELD.term]));
    }
    if (!wholeTerm(term)) return pass;
    const age = ageOn(birthDate, addMonths(input.today, term));
    if (age > config.maximumAgeAtEndOfTerm) {
      return fail(
        'AGE_AT_END_OF_TERM',
        `Applicants may be at most ${config.maximumAgeAtEndOfTerm} years old at the end of the term.`,
      );
    }
    return pass;
  },
};
