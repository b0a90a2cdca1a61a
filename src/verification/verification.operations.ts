/** What the OpenAPI document says of each PIN verification operation, keyed by operationId. */
import { operationTable } from '../http/index.ts';

export const verificationOperations = operationTable({
  sendPin: {
    summary: 'Send or resend a PIN',
    description:
      'Sends a new 6-digit PIN, valid 10 minutes, replacing any earlier one. No phone / e-mail on file: 400 / ' +
      '4003. At most 5 sends per lead in 10 minutes (429 with Retry-After). A provider failure is 412 with a ' +
      '6XXYYY code and changes nothing.',
  },
  confirmPin: {
    summary: 'Confirm the PIN',
    description:
      'Confirms the PIN, obtains the credit bureau report and pre-qualifies the lead. Wrong, expired, void or no ' +
      'PIN: 400 / 4003 with `additionalData.reason`. Person and address are needed first. A bureau failure is 412 ' +
      'and the same confirmation can be retried.',
  },
});
