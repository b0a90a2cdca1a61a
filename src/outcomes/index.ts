/** What other modules and the composition root may use of the outcomes module. */
export {
  OUTCOME_STATUSES,
  CONDITION_CODES,
  OUTCOME_REASON_CODES,
  outcomeStatusLabels,
  conditionLabels,
  outcomeReasonLabels,
  outcomeMayMove,
  isFinalOutcome,
  type OutcomeStatus,
} from './outcome-status.ts';
export { outcomeSql } from './outcomes.repository.ts';
export { type OutcomesService, type PartnerOutcomeView, type OperatorOutcomeView } from './outcomes.service.ts';
export { type FunnelService } from './funnel.service.ts';
export {
  PartnerOutcome as PartnerOutcomeSchema,
  OperatorOutcome as OperatorOutcomeSchema,
} from './outcomes.schemas.ts';

export { parseOutcomeRequest } from './outcome-request.ts';
export { createOutcomesModule } from './outcomes.module.ts';
