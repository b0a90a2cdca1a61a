/** What other modules may use of the leads module. */
export {
  createLeadSealer,
  leadEncryptedColumns,
  type LeadSealer,
  type Lead,
  type StoredPrequalification,
  type Verification,
} from './lead-record.ts';
export type { Actor } from './actor.ts';
export { leadView, leadSummaryView } from './lead-view.ts';
export { encodeCursor, decodeCursor } from './lead-queries.ts';
export {
  Lead as LeadSchema,
  LeadSummary as LeadSummarySchema,
  LeadEvents as LeadEventsSchema,
} from './lead-read.schemas.ts';
export {
  createLeadLifecycle,
  toPrequalificationInput,
  type LeadLifecycle,
  type Prequalify,
  type TransitionContext,
} from './lead-lifecycle.ts';
export type { LeadRow } from './leads.repository.ts';
export {
  createLenderLeadQueries,
  type ErasableRow,
  type LenderLeadFilter,
  type LenderLeadQueries,
  type StatusCount,
} from './lender-lead-queries.ts';
export { createLeadQueries } from './lead-queries.ts';
export { leadsRoutes } from './leads.routes.ts';
export { LeadIdParams } from './leads.schemas.ts';
export { createLeadsService } from './leads.service.ts';
export { createLeadsModule, type LeadsModule } from './leads.module.ts';
