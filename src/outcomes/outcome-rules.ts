/**
 * Which fields each outcome status takes (docs/lender-api.md, "Outcomes"). The schema checks each
 * field's shape; these rules check the fields against the status, all at once. Pure.
 */
import type { FieldError } from '../http/index.ts';
import type { ConditionCode, OutcomeReasonCode, OutcomeStatus } from './outcome-status.ts';

export interface OutcomeChange {
  status: OutcomeStatus;
  reasonCode?: OutcomeReasonCode;
  conditions?: { code: ConditionCode; description: string }[];
  amountApproved?: number;
  amountFunded?: number;
  note?: string;
}

const needsReason: ReadonlySet<OutcomeStatus> = new Set(['DECLINED', 'WITHDRAWN']);
const refusesReason: ReadonlySet<OutcomeStatus> = new Set(['APPROVED', 'FUNDED']);

/** A peso amount as the API writes money: at most two decimals (checked on cents, float-safe). */
export const hasCents = (value: number): boolean => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

function amountErrors(change: OutcomeChange, approvedBefore: number | null): FieldError[] {
  const out: FieldError[] = [];
  const amount = (field: 'amountApproved' | 'amountFunded', takenBy: OutcomeStatus) => {
    const value = change[field];
    if (change.status === takenBy && value === undefined)
      out.push({ field, errorDetail: `is required when status is ${takenBy}` });
    else if (change.status !== takenBy && value !== undefined)
      out.push({ field, errorDetail: `is only taken when status is ${takenBy}` });
    else if (value !== undefined && !hasCents(value)) out.push({ field, errorDetail: 'must have at most 2 decimals' });
  };
  amount('amountApproved', 'APPROVED');
  amount('amountFunded', 'FUNDED');
  const funded = change.amountFunded;
  if (change.status === 'FUNDED' && funded !== undefined && approvedBefore !== null && funded > approvedBefore) {
    out.push({ field: 'amountFunded', errorDetail: `must be at most the approved amount (${approvedBefore})` });
  }
  return out;
}

/**
 * Every field that does not fit the status. `approvedBefore`: the amount the lead's current outcome
 * approved (null when none), which a funded amount may not exceed.
 */
export function outcomeFieldErrors(change: OutcomeChange, approvedBefore: number | null): FieldError[] {
  const out: FieldError[] = [];
  if (change.status === 'CONDITIONED' && change.conditions === undefined) {
    out.push({ field: 'conditions', errorDetail: 'is required when status is CONDITIONED' });
  } else if (change.status !== 'CONDITIONED' && change.conditions !== undefined) {
    out.push({ field: 'conditions', errorDetail: 'is only taken when status is CONDITIONED' });
  }
  if (needsReason.has(change.status) && change.reasonCode === undefined) {
    out.push({ field: 'reasonCode', errorDetail: `is required when status is ${change.status}` });
  } else if (refusesReason.has(change.status) && change.reasonCode !== undefined) {
    out.push({ field: 'reasonCode', errorDetail: `is not taken when status is ${change.status}` });
  }
  return [...out, ...amountErrors(change, approvedBefore)];
}
