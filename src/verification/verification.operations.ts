/** What the OpenAPI document says of each PIN verification operation, keyed by operationId. */
import { errors, errorCase, operationTable, type ErrorCase, type ErrorCases } from '../http/index.ts';

const rejected = (summary: string, reason: string, fields: { field: string; errorDetail: string }[] = []) =>
  errorCase(summary, errors.pinRejected(reason, fields));
/** The error cases both PIN routes share, with the route's own refusals, provider failures and more. */
const pinCases = (bad: ErrorCase[], providerFailures: ErrorCase[], more: { 429?: ErrorCase[] } = {}): ErrorCases => ({
  400: [rejected('Invalid request', 'INVALID_REQUEST', [{ field: 'channel', errorDetail: 'is required' }]), ...bad],
  404: [errorCase('No such lead, or another company’s', errors.leadNotFound())],
  409: [errorCase('The lead is already verified', errors.leadVerified())],
  412: providerFailures,
  ...more,
});
const refusedDescriptions = {
  400: 'Refused: `additionalData.reason` says why (and `errors` lists invalid fields).',
};

export const verificationOperations = operationTable({
  sendPin: {
    summary: 'Send or resend a PIN',
    description:
      'Sends a new 6-digit PIN, valid 10 minutes, replacing any earlier one. No phone / e-mail on file: 400 / ' +
      '4003. At most 5 sends per lead in 10 minutes (429 with Retry-After). A provider failure is 412 with a ' +
      '6XXYYY code and changes nothing.',
    errorCases: pinCases(
      [
        rejected('No phone on file for an SMS', 'NO_PHONE_ON_FILE'),
        rejected('No e-mail on file for an EMAIL', 'NO_EMAIL_ON_FILE'),
      ],
      [
        errorCase('The SMS provider timed out', errors.providerFailed('sms', 'timeout')),
        errorCase('The e-mail provider refused the message', errors.providerFailed('email', 'rejected')),
      ],
      {
        429: [
          errorCase(
            'Five PINs were sent to this lead in the last 10 minutes',
            errors.tooManyRequests('PIN_SEND_LIMIT', 240),
          ),
        ],
      },
    ),
    errorDescriptions: refusedDescriptions,
  },
  confirmPin: {
    summary: 'Confirm the PIN',
    description:
      'Confirms the PIN, obtains the credit bureau report and pre-qualifies the lead. Wrong, expired, void or no ' +
      'PIN: 400 / 4003 with `additionalData.reason`. Person and address are needed first. A bureau failure is 412 ' +
      'and the same confirmation can be retried.',
    errorCases: pinCases(
      [
        rejected('Wrong PIN', 'PIN_MISMATCH'),
        rejected('The PIN expired', 'PIN_EXPIRED'),
        rejected('Five wrong tries made the PIN void', 'PIN_VOID'),
        rejected('No PIN was sent', 'NO_PIN_PENDING'),
        rejected('pinConfirmation differs from pin', 'PIN_CONFIRMATION_MISMATCH', [
          { field: 'pinConfirmation', errorDetail: 'must equal pin' },
        ]),
        rejected('The person or the address is missing', 'PERSON_AND_ADDRESS_REQUIRED'),
      ],
      [
        errorCase(
          'The credit bureau timed out (the same confirmation can be retried)',
          errors.providerFailed('bureau', 'timeout'),
        ),
        errorCase(
          'The credit bureau failed (the same confirmation can be retried)',
          errors.providerFailed('bureau', 'error'),
        ),
      ],
    ),
    errorDescriptions: refusedDescriptions,
  },
});
