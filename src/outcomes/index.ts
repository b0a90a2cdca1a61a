/** What other modules and the composition root may use of the outcomes module. */
export {
  OUTCOME_STATUSES,
  CONDITION_CODES,
  OUTCOME_REASON_CODES,
  outcomeMayMove,
  outcomeStatusLabels,
  conditionLabels,
  outcomeReasonLabels,
  type OutcomeStatus,
  type ConditionCode,
  type OutcomeReasonCode,
} from './outcome-status.ts';
export { outcomeSql } from './outcomes.repository.ts';
export {
  createOutcomesService,
  outcomeEncryptedColumns,
  type OutcomesService,
  type OutcomeLeads,
  type PartnerOutcomeView,
  type OperatorOutcomeView,
} from './outcomes.service.ts';
export { createFunnelService, type FunnelService } from './funnel.service.ts';
export {
  PartnerOutcome as PartnerOutcomeSchema,
  OperatorOutcome as OperatorOutcomeSchema,
} from './outcomes.schemas.ts';
export type { OutcomeChange } from './outcome-rules.ts';
export { outcomesRoutes } from './outcomes.routes.ts';
export { parseOutcomeRequest } from './outcome-request.ts';
export { createOutcomesModule, type OutcomesModule } from './outcomes.module.ts';
