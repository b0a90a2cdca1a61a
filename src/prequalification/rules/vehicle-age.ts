import { addMonths } from './calendar.ts';
import { FIELD, absent, fail, known, missing, pass, wholeTerm, type Rule } from './rule.ts';

/**
 * Optional: when `maximumVehicleAgeYears` is set, the vehicle (by model year) is no older than that
 * in the year of the last payment. Unset (null), the rule asks for nothing and always passes.
 */
export const vehicleAge: Rule = {
  name: 'vehicle-age',
  check(input, config) {
    const limit = config.maximumVehicleAgeYears;
    if (limit === null) return pass;
    const modelYear = input.vehicle?.modelYear;
    const term = input.loan?.term;
    if (!known(modelYear) || !known(term)) {
      return missing(...absent([known(modelYear), FIELD.modelYear], [known(term), FIELD.term]));
    }
    if (!wholeTerm(term)) return pass;
    const age = Number(addMonths(input.today, term).slice(0, 4)) - modelYear;
    if (age > limit) {
      return fail(
        'VEHICLE_TOO_OLD',
        `A ${modelYear} vehicle would be ${age} years old at the end of the term; the maximum is ${limit}.`,
      );
    }
    return pass;
  },
};
