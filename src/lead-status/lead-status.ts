/**
 * Lead statuses and every move between them, in one place:
 * CREATED → IN_PROGRESS (a section was saved) → PIN_SENT → VERIFIED (PIN confirmed)
 * → PREQUALIFIED | NOT_PREQUALIFIED (re-evaluated when data changes; INCOMPLETE stays VERIFIED).
 */
export const leadStatuses = [
  'CREATED',
  'IN_PROGRESS',
  'PIN_SENT',
  'VERIFIED',
  'PREQUALIFIED',
  'NOT_PREQUALIFIED',
] as const;
export type LeadStatus = (typeof leadStatuses)[number];

export const verifiedStatuses = [
  'VERIFIED',
  'PREQUALIFIED',
  'NOT_PREQUALIFIED',
] as const satisfies readonly LeadStatus[];
const verified: ReadonlySet<LeadStatus> = new Set(verifiedStatuses);

/** Once verified, the person, address and verified contact are frozen. */
export const isVerified = (status: LeadStatus): boolean => verified.has(status);

/** A section was saved: an empty lead becomes a card in progress; later statuses stay. */
export const afterSectionSaved = (status: LeadStatus): LeadStatus => (status === 'CREATED' ? 'IN_PROGRESS' : status);

/** The same two rules for a section write done in one SQL statement (leads.repository.ts). */
export const sql = {
  afterSectionSaved: `case when status = 'CREATED' then 'IN_PROGRESS' else status end`,
  isVerified: `status in (${verifiedStatuses.map((s) => `'${s}'`).join(', ')})`,
};

/** A PIN was handed to a provider. Undefined when the lead may no longer get one. */
export const afterPinSent = (status: LeadStatus): LeadStatus | undefined =>
  isVerified(status) ? undefined : 'PIN_SENT';

/** The PIN was confirmed. */
export const afterPinConfirmed = (status: LeadStatus): LeadStatus | undefined =>
  status === 'PIN_SENT' ? 'VERIFIED' : undefined;

export type Decision = 'PREQUALIFIED' | 'NOT_PREQUALIFIED' | 'INCOMPLETE';

/** Pre-qualification was (re-)evaluated on a verified lead. */
export function afterPrequalification(status: LeadStatus, decision: Decision): LeadStatus {
  if (!isVerified(status)) return status;
  return decision === 'INCOMPLETE' ? 'VERIFIED' : decision;
}
