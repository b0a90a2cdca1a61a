/** What other modules may use of the leads module. */
export { createLeadSealer, type LeadSealer, type Lead } from './lead-record.ts';
export type { Actor } from './actor.ts';
export { leadView, leadSummaryView } from './lead-view.ts';
export { encodeCursor, decodeCursor } from './lead-queries.ts';
export { Lead as LeadSchema, LeadEvents as LeadEventsSchema } from './lead-read.schemas.ts';
export { toPrequalificationInput, type LeadLifecycle } from './lead-lifecycle.ts';

export {
  createLenderLeadQueries,
  type ErasableRow,
  type LenderLeadFilter,
  type LenderLeadQueries,
} from './lender-lead-queries.ts';

export { LeadIdParams } from './leads.schemas.ts';

export { createLeadsModule } from './leads.module.ts';
