/**
 * A lead's statuses and the moves between them (lead-status.ts): a pure module, so that every module
 * that reads or counts leads by status (leads, outcomes, webhooks, the console) shares one definition.
 */
export {
  afterPinConfirmed,
  afterPinSent,
  afterPrequalification,
  afterSectionSaved,
  isVerified,
  leadStatuses,
  sql as leadStatusSql,
  verifiedStatuses,
  type LeadStatus,
} from './lead-status.ts';
