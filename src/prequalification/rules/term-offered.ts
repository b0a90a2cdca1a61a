import { FIELD, fail, known, missing, pass, type Rule } from './rule.ts';

/** The requested term is one the lender offers. */
export const termOffered: Rule = {
  name: 'term-offered',
  check(input, config) {
    const term = input.loan?.term;
    if (!known(term)) return missing(FIELD.term);
    if (!config.allowedTerms.includes(term)) {
      return fail(
        'TERM_NOT_OFFERED',
        `A ${term}-month term is not offered; terms offered: ${config.allowedTerms.join(', ')} months.`,
      );
    }
    return pass;
  },
};
