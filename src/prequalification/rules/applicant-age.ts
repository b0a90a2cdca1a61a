import { ageOn } from '../../shared/index.ts';
import { FIELD, fail, knownDate, missing, pass, type Rule } from './rule.ts';

/** The applicant's age today is within the lender's range. */
export const applicantAge: Rule = {
  name: 'applicant-age',
  check(input, config) {
    if (!knownDate(input.birthDate)) return missing(FIELD.birthDate);
    const age = ageOn(input.birthDate, input.today);
    if (age < config.minimumAge || age > config.maximumAge) {
      return fail('AGE_OUT_OF_RANGE', `Applicants must be ${config.minimumAge} to ${config.maximumAge} years old.`);
    }
    return pass;
  },
};
