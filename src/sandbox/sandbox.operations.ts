/** What the OpenAPI document says of each sandbox operation, keyed by operationId. */
import { errors, errorCase, operationTable } from '../http/index.ts';

export const sandboxOperations = operationTable({
  listSandboxMessages: {
    summary: 'Read the PIN messages sent for a lead (sandbox only)',
    description:
      'Every SMS and e-mail a provider accepted for the lead, newest first, with the body as sent (PIN included) ' +
      'and the recipient masked. Sends to magic recipients fail before any provider and are not listed. Exists ' +
      "only when the environment is `sandbox` (elsewhere 404 / 4044); another company's or an unknown lead is 404 " +
      '/ 4040.',
    errorCases: {
      400: [
        errorCase(
          'A lead id that is not a UUID',
          errors.invalidInput([{ field: 'leadId', errorDetail: 'must match pattern' }]),
        ),
      ],
      404: [errorCase("Unknown lead, or another company's", errors.leadNotFound())],
    },
  },
});
