/** What other modules may use of the leads module. */
export { createLeadsRepository, type LeadsRepository, type LeadRow, type LeadChanges } from './leads.repository.ts';
export { createLeadSealer, leadEncryptedColumns, type LeadSealer, type Lead, type StoredPrequalification, type Verification } from './lead-record.ts';
export { isVerified, afterPinSent, afterPinConfirmed, afterPrequalification, type LeadStatus } from './lead-status.ts';
export type { Actor } from './leads.service.ts';
export { leadView, leadSummaryView } from './lead-view.ts';
export { encodeCursor, decodeCursor, parseDate } from './lead-queries.ts';
export { Lead as LeadSchema, LeadSummary as LeadSummarySchema, LeadEvents as LeadEventsSchema } from './lead-read.schemas.ts';
export { recordPinSent, recordVerified, recordPrequalification, type TransitionContext } from './lead-transitions.ts';
export { leadEventTypes, outboxCtes, type LeadEventType } from './lead-outbox.ts';
export { verifiedStatuses } from './lead-status.ts';
