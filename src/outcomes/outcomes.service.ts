/**
 * The lender's decision on a lead (docs/lender-api.md, "Outcomes"): officers and admins set it, the
 * partner reads it (without the internal note or the operator) and hears of each change through the
 * `lead.outcome_changed` event, written in the same statement as the change. Each change is audited.
 */
import type { Db, Queryable, EncryptedColumn } from '../db/index.ts';
import { errors } from '../http/index.ts';
import { type Clock, newId } from '../shared/index.ts';
import type { LeadSealing } from '../lead-keys/index.ts';
import type { AuditOrigin } from '../audit/index.ts';
import { outcomeFieldErrors, type OutcomeChange } from './outcome-rules.ts';
import { outcomeMayMove, type OutcomeReasonCode, type OutcomeStatus } from './outcome-status.ts';
import type { OutcomeRow, OutcomeSubject, OutcomesRepository } from './outcomes.repository.ts';
import { conditionsOf, type ConditionStatus } from './conditions.ts';

/** The lead an outcome is set on, locked until the transaction ends. */
export interface OutcomeLeads {
  lockForOutcome(
    leadId: string,
    tx: Queryable,
  ): Promise<(OutcomeSubject & { verified: boolean; erased: boolean }) | undefined>;
  /** Records on the lead that its outcome changed: its `updatedAt`, its history. */
  outcomeChanged(leadId: string, at: Date, tx: Queryable): Promise<void>;
}

/** Each condition's status from its documents, by condition id (the documents module's). */
export type ConditionStatuses = (leadId: string, tx?: Queryable) => Promise<ReadonlyMap<string, ConditionStatus>>;

interface Deps {
  db: Pick<Db, 'transaction'>;
  conditionStatuses: ConditionStatuses;
  repository: OutcomesRepository;
  leads: OutcomeLeads;
  audit: { record(origin: AuditOrigin, what: { action: 'outcome'; leadId: string }, tx?: Queryable): Promise<void> };
  /** The leads' own keys, which seal the internal notes (src/lead-keys). */
  sealing: LeadSealing;
  clock: Clock;
}

const noteContext = (leadId: string) => `lead:${leadId}:outcome-note`;

/** The internal notes, sealed with the data key (keys are rotated over them as over every sealed value). */
export const outcomeEncryptedColumns: EncryptedColumn[] = [
  { table: 'lead_outcomes', id: 'lead_id', leadOf: 'lead_id', column: 'note_enc', context: noteContext },
];

/** What the partner may see of an outcome: no note, no operator. */
export function partnerOutcome(leadId: string, row: OutcomeRow, statuses?: ReadonlyMap<string, ConditionStatus>) {
  return {
    status: row.status,
    at: row.at.toISOString(),
    reasonCode: row.reasonCode,
    conditions: row.conditions && conditionsOf(leadId, row.conditions, statuses),
    amountApproved: row.amountApproved,
    amountFunded: row.amountFunded,
  };
}

export type PartnerOutcomeView = ReturnType<typeof partnerOutcome>;

export type OperatorOutcomeView = PartnerOutcomeView & {
  operatorId: string;
  note: string | null;
  history: { status: OutcomeStatus; at: string; operatorId: string; reasonCode: OutcomeReasonCode | null }[];
};

export function createOutcomesService(deps: Deps) {
  const noteOf = (leadId: string, row: OutcomeRow) =>
    row.noteEnc === null ? null : deps.sealing.open<string>(leadId, row.noteEnc, noteContext(leadId));

  /** The statuses of the row's conditions: read only when it has some. */
  const statusesOf = async (leadId: string, row: OutcomeRow, tx?: Queryable) =>
    row.conditions ? deps.conditionStatuses(leadId, tx) : undefined;

  async function operatorView(leadId: string, history: OutcomeRow[], tx?: Queryable) {
    const current = history.at(-1);
    if (!current) return null;
    if (current.noteEnc !== null) await deps.sealing.forReading([leadId], tx);
    const view: OperatorOutcomeView = {
      ...partnerOutcome(leadId, current, await statusesOf(leadId, current, tx)),
      operatorId: current.operatorId,
      note: noteOf(leadId, current),
      history: history.map((h) => ({
        status: h.status,
        at: h.at.toISOString(),
        operatorId: h.operatorId,
        reasonCode: h.reasonCode,
      })),
    };
    return view;
  }

  /** The stored row of a change allowed from `before`: amounts and the approval carried as the rules say. */
  function nextRow(leadId: string, origin: AuditOrigin, change: OutcomeChange, before?: OutcomeRow): OutcomeRow {
    return {
      status: change.status,
      at: deps.clock.now(),
      operatorId: origin.operatorId,
      reasonCode: change.reasonCode ?? null,
      conditions: change.conditions ?? null,
      // FUNDED keeps the approved amount it was funded against.
      amountApproved: change.status === 'FUNDED' ? (before?.amountApproved ?? null) : (change.amountApproved ?? null),
      amountFunded: change.amountFunded ?? null,
      noteEnc: change.note === undefined ? null : deps.sealing.seal(leadId, change.note, noteContext(leadId)),
      wasApproved: change.status === 'APPROVED' || (before?.wasApproved ?? false),
    };
  }

  return {
    /** Sets the lead's outcome: 400 for fields that do not fit the status, then 409 / 4092 for a refused move. */
    async record(origin: AuditOrigin, leadId: string, change: OutcomeChange) {
      const id = leadId.toLowerCase();
      return deps.db.transaction(async (tx) => {
        const lead = await deps.leads.lockForOutcome(id, tx);
        if (!lead) throw errors.leadNotFound();
        const before = await deps.repository.current(id, tx);
        const approvedBefore = before?.status === 'APPROVED' ? before.amountApproved : null;
        const fieldErrors = outcomeFieldErrors(change, approvedBefore);
        if (fieldErrors.length > 0) throw errors.invalidInput(fieldErrors);
        const from = before?.status ?? null;
        if (!lead.verified || !outcomeMayMove(from, change.status)) throw errors.outcomeTransition(from, change.status);
        // The note is personal data: on a lead whose personal data was erased it is not kept either.
        const kept = lead.erased ? { ...change, note: undefined } : change;
        if (kept.note !== undefined) await deps.sealing.forWriting(id, tx);
        const row = nextRow(id, origin, kept, before);
        const outcome = partnerOutcome(id, row, await statusesOf(id, row, tx));
        await deps.repository.record(lead, row, { id: newId(), outcome }, tx);
        await deps.leads.outcomeChanged(id, row.at, tx);
        await deps.audit.record(origin, { action: 'outcome', leadId: id }, tx);
        return operatorView(id, await deps.repository.history(id, tx), tx);
      });
    },

    /** The lender's view: the current outcome with its note and the history; null when none. */
    async operatorView(leadId: string) {
      return operatorView(leadId, await deps.repository.history(leadId));
    },

    /** The partner's view of the current outcome; in `tx` when given (an erasure reads it under the lead's lock). */
    async partnerView(leadId: string, tx?: Queryable): Promise<PartnerOutcomeView | null> {
      const current = await deps.repository.current(leadId, tx);
      return current ? partnerOutcome(leadId, current, await statusesOf(leadId, current, tx)) : null;
    },

    /** The current decision's status and its conditions' ids (the documents module checks uploads against them). */
    async currentConditions(leadId: string, tx?: Queryable) {
      const current = await deps.repository.current(leadId, tx);
      if (!current) return null;
      return { status: current.status, conditionIds: conditionsOf(leadId, current.conditions ?? []).map((c) => c.id) };
    },

    /** Erasure of the lead's personal data takes the notes with it (inside the erasure's transaction). */
    eraseNotes: (leadId: string, tx: Queryable) => deps.repository.eraseNotes(leadId, tx),
  };
}

export type OutcomesService = ReturnType<typeof createOutcomesService>;
