/** What the OpenAPI document says of each outcome and funnel operation, keyed by operationId. */
import { operationTable } from '../http/operation.ts';

export const outcomesOperations = operationTable({
  setLeadOutcome: {
    summary: "Set the lender's decision on a lead",
    description:
      'Officers and admins. The lead must be verified; the move must be one the transition table allows (else 409 ' +
      '/ 4092 with `additionalData {from, to}`). Fields the status does not take are 400 / 40015. Writes the ' +
      'history, an audit record and the `lead.outcome_changed` event.',
  },
  funnelReport: {
    summary: 'How far the leads of each company got',
    description:
      'Leads created in the window (`createdFrom` inclusive, `createdTo` exclusive), per company: created, ' +
      'verified, pre-qualified, approved, funded and the funded amount. Companies without leads in the window are ' +
      'left out.',
  },
});
