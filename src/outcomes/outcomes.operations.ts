/** What the OpenAPI document says of each outcome and funnel operation, keyed by operationId. */
import { errors, errorCase, operationTable } from '../http/index.ts';

export const outcomesOperations = operationTable({
  setLeadOutcome: {
    summary: "Set the lender's decision on a lead",
    description:
      'Officers and admins. The lead must be verified; the move must be one the transition table allows (else 409 ' +
      '/ 4092 with `additionalData {from, to}`). Fields the status does not take are 400 / 40015. Writes the ' +
      'history, an audit record and the `lead.outcome_changed` event.',
    errorCases: {
      400: [
        errorCase(
          'A field the status needs, or one it does not take',
          errors.invalidInput([{ field: 'conditions', errorDetail: 'is required when status is CONDITIONED' }]),
        ),
        errorCase(
          'An invalid condition',
          errors.invalidInput([
            {
              field: 'conditions.0.code',
              errorDetail:
                'must be one of: PROOF_OF_INCOME, PROOF_OF_ADDRESS, OFFICIAL_ID, LARGER_DOWN_PAYMENT, CO_SIGNER, OTHER',
            },
          ]),
        ),
      ],
      404: [errorCase('No such lead', errors.leadNotFound())],
      409: [
        errorCase(
          'The outcome may not move to that status, or the lead is not verified',
          errors.outcomeTransition('APPROVED', 'CONDITIONED'),
        ),
      ],
    },
    errorDescriptions: { 403: 'An analyst: only officers and admins set outcomes.' },
  },
  funnelReport: {
    summary: 'How far the leads of each company got',
    description:
      'Leads created in the window (`createdFrom` inclusive, `createdTo` exclusive), per company: created, ' +
      'verified, pre-qualified, approved, funded and the funded amount. Companies without leads in the window are ' +
      'left out.',
    errorCases: {
      400: [
        errorCase(
          'Invalid window',
          errors.invalidInput([
            { field: 'createdFrom', errorDetail: 'must be an ISO 8601 date or date-time of the years 0001–9999' },
          ]),
        ),
      ],
    },
  },
});
