import { buildOffer } from '../offer.ts';
import { FIELD, absent, fail, known, missing, pass, type Rule } from './rule.ts';

/**
 * The new loan's payment (IVA included) plus the monthly payments of every debt in the bureau report
 * stay within the configured share of the applicant's monthly income.
 */
export const paymentToIncome: Rule = {
  name: 'payment-to-income',
  check(input, config) {
    const { report } = input;
    const price = input.vehicle?.price;
    const downPayment = input.loan?.downPayment;
    const term = input.loan?.term;
    const income = input.financial?.income;
    if (!known(price) || price <= 0 || !known(downPayment) || !known(term) || !known(income) || !report) {
      return missing(
        ...absent(
          [known(price) && price > 0, FIELD.price],
          [known(downPayment), FIELD.downPayment],
          [known(term), FIELD.term],
          [known(income), FIELD.income],
          [Boolean(report), FIELD.report],
        ),
      );
    }
    // Other rules refuse these cases; a payment over an unoffered term or a zero loan means nothing.
    if (downPayment >= price || !config.allowedTerms.includes(term)) return pass;
    const loanPayment = buildOffer({ price, downPayment, term, report }, config).monthlyPayment;
    const debts = report.accounts.reduce((sum, account) => sum + Math.max(0, account.monthlyPayment), 0);
    const total = loanPayment + debts;
    if (income <= 0 || total > income * config.maximumPaymentToIncome) {
      return fail(
        'PAYMENT_TO_INCOME',
        `The monthly payments, this loan's and the debts the bureau reports, would take more than ` +
          `${Math.round(config.maximumPaymentToIncome * 1000) / 10}% of the income.`,
      );
    }
    return pass;
  },
};
