import { roundMoney } from '../offer.ts';
import { FIELD, absent, fail, hasCreditRecord, known, missing, pass, type Rule } from './rule.ts';

/**
 * The down payment is at least the configured share of the vehicle's price. An applicant without a
 * credit record, when the thin-file policy lets them in, must put down the higher no-record share:
 * the down payment then carries the risk a bureau history would otherwise measure.
 */
export const downPaymentShare: Rule = {
  name: 'down-payment-share',
  check(input, config) {
    const price = input.vehicle?.price;
    const downPayment = input.loan?.downPayment;
    // A price of 0 cannot be financed or compared with: it is as good as not given.
    if (!known(price) || price <= 0 || !known(downPayment)) {
      return missing(...absent([known(price) && price > 0, FIELD.price], [known(downPayment), FIELD.downPayment]));
    }
    if (downPayment >= price) {
      return fail('NOTHING_TO_FINANCE', 'The down payment covers the whole price: there is nothing to finance.');
    }
    const thinFile =
      input.report != null && !hasCreditRecord(input.report) && config.noRecordPolicy === 'ALLOW_WITH_MIN_DOWN_PAYMENT';
    const share = thinFile ? config.noRecordMinimumDownPaymentShare : config.minimumDownPaymentShare;
    const required = roundMoney(price * share);
    if (downPayment < required) {
      const who = thinFile ? 'Applicants without a credit record need' : 'The lender needs';
      return fail(
        'LOW_DOWN_PAYMENT',
        `${who} a down payment of at least ${percent(share)} of the price ` +
          `(${required.toFixed(2)} MXN); the down payment is ${downPayment.toFixed(2)} MXN.`,
      );
    }
    return pass;
  },
};

function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}
