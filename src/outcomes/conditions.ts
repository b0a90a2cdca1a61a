/**
 * The conditions of a `CONDITIONED` decision as both views and the `lead.outcome_changed` event show them
 * (docs/lender-api.md, "Outcomes"): each with an `id` and a `status`. The id is made from the lead, the
 * condition's code and description (and, for the same pair written twice, which one it is), so a later
 * `CONDITIONED` change keeps the id of every condition it repeats unchanged, and stored decisions need no
 * id of their own. A condition is `PENDING` until a document answers it, then its documents' status
 * (the documents module's, handed in as `statuses`).
 */
import { createHash } from 'node:crypto';
import type { ConditionCode } from './outcome-status.ts';

export const CONDITION_STATUSES = ['PENDING', 'RECEIVED', 'ACCEPTED', 'REJECTED'] as const;
export type ConditionStatus = (typeof CONDITION_STATUSES)[number];

export interface StoredCondition {
  code: ConditionCode;
  description: string;
}

export interface ConditionView extends StoredCondition {
  id: string;
  status: ConditionStatus;
}

/** The stable id of the `occurrence`-th condition (from 0) with this code and description on the lead. */
export function conditionId(leadId: string, condition: StoredCondition, occurrence: number): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([leadId.toLowerCase(), condition.code, condition.description, occurrence]))
    .digest('hex');
  return `cond_${digest.slice(0, 20)}`;
}

export function conditionsOf(
  leadId: string,
  conditions: readonly StoredCondition[],
  statuses: ReadonlyMap<string, ConditionStatus> = new Map(),
): ConditionView[] {
  const seen = new Map<string, number>();
  return conditions.map((condition) => {
    const pair = JSON.stringify([condition.code, condition.description]);
    const occurrence = seen.get(pair) ?? 0;
    seen.set(pair, occurrence + 1);
    const id = conditionId(leadId, condition, occurrence);
    return { id, ...condition, status: statuses.get(id) ?? 'PENDING' };
  });
}
