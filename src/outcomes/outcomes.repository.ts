/**
 * SQL of lead outcomes: one row per change, the current one marked. Only this file (and the funnel
 * report's) has SQL for the table; the lead lists read it through `outcomeSql`.
 */
import type { Queryable } from '../db/index.ts';
import { outboxCtes } from '../webhooks/index.ts';
import type { ConditionCode, OutcomeReasonCode, OutcomeStatus } from './outcome-status.ts';

export interface OutcomeRow {
  status: OutcomeStatus;
  at: Date;
  operatorId: string;
  reasonCode: OutcomeReasonCode | null;
  conditions: { code: ConditionCode; description: string }[] | null;
  amountApproved: number | null;
  amountFunded: number | null;
  noteEnc: string | null;
  wasApproved: boolean;
}

/** The lead as the change's event names it (its state after the change: an outcome moves no lead status). */
export interface OutcomeSubject {
  id: string;
  companyId: string;
  externalAutoId: string | null;
  status: string;
}

interface StoredRow {
  status: OutcomeStatus;
  at: Date;
  operator_id: string;
  reason_code: OutcomeReasonCode | null;
  conditions: OutcomeRow['conditions'];
  amount_approved: string | number | null;
  amount_funded: string | number | null;
  note_enc: string | null;
  was_approved: boolean;
}

const amount = (value: string | number | null) => (value === null ? null : Number(value));
const toRow = (r: StoredRow): OutcomeRow => ({
  status: r.status,
  at: r.at,
  operatorId: r.operator_id,
  reasonCode: r.reason_code,
  conditions: r.conditions,
  amountApproved: amount(r.amount_approved),
  amountFunded: amount(r.amount_funded),
  noteEnc: r.note_enc,
  wasApproved: r.was_approved,
});
const columns =
  'status, at, operator_id, reason_code, conditions, amount_approved, amount_funded, note_enc, was_approved';

/** SQL a lead list uses to show and filter leads by their current outcome (`lead` is the lead id column). */
export const outcomeSql = {
  /**
   * A page of `leads` newest first: `matching` is its WHERE conditions and `limit` the LIMIT's placeholder.
   * When a condition is on the outcome (`outcomeFilter`), the page's ids are found first on indexes alone
   * (the leads' keyset index, the current outcomes' index), then only the page's rows are read: testing each
   * lead read row by row cost a heap read for every lead passed over, about 85 per FUNDED lead, and at a
   * million leads 17–19 ms a page against 2–4.
   */
  page: (columns: string, matching: string[], limit: string, outcomeFilter: boolean) => {
    const where = matching.length ? `where ${matching.join(' and ')}` : '';
    const order = 'order by created_at desc, id desc';
    return outcomeFilter
      ? `select ${columns} from leads where id in (select id from leads ${where} ${order} limit ${limit}) ${order}`
      : `select ${columns} from leads ${where} ${order} limit ${limit}`;
  },
  statusOf: (lead: string) => `(select o.status from lead_outcomes o where o.lead_id = ${lead} and o.current)`,
  is: (lead: string, placeholder: string) =>
    `exists (select 1 from lead_outcomes o where o.lead_id = ${lead} and o.current and o.status = ${placeholder})`,
  /** A credit funded after the instant of `placeholder`: still inside its legal retention. */
  fundedAfter: (lead: string, placeholder: string) =>
    `exists (select 1 from lead_outcomes o where o.lead_id = ${lead} and o.current and o.status = 'FUNDED'
       and o.at > ${placeholder})`,
};

export function createOutcomesRepository(db: Queryable) {
  return {
    async current(leadId: string, tx: Queryable = db): Promise<OutcomeRow | undefined> {
      const { rows } = await tx.query<StoredRow>(
        `select ${columns} from lead_outcomes where lead_id = $1 and current`,
        [leadId],
      );
      return rows[0] && toRow(rows[0]);
    },

    /** Every change of the lead, oldest first. */
    async history(leadId: string, tx: Queryable = db): Promise<OutcomeRow[]> {
      const { rows } = await tx.query<StoredRow>(
        `select ${columns} from lead_outcomes where lead_id = $1 order by seq`,
        [leadId],
      );
      return rows.map(toRow);
    },

    /**
     * The new current outcome, the end of the previous one and the event, in one statement. The
     * caller holds the lead's lock, so a lead never has two current rows.
     */
    async record(
      subject: OutcomeSubject,
      row: OutcomeRow,
      event: { id: string; outcome: object },
      tx: Queryable,
    ): Promise<void> {
      const params: unknown[] = [subject.id, row.at];
      const p = (value: unknown) => `$${params.push(value)}`;
      await tx.query(
        `with ended as (
           update lead_outcomes set current = false where lead_id = $1 and current
         ), lead as (
           select $1::uuid as id, ${p(subject.companyId)}::uuid as company_id,
             ${p(subject.externalAutoId)}::text as external_auto_id, ${p(subject.status)}::text as status
         ), ${outboxCtes('lead', { id: event.id, type: 'lead.outcome_changed', outcome: event.outcome }, '$2', p)}
         insert into lead_outcomes (lead_id, ${columns}, current)
         values ($1, ${p(row.status)}, $2, ${p(row.operatorId)},
           ${p(row.reasonCode)}, ${p(row.conditions && JSON.stringify(row.conditions))}::jsonb,
           ${p(row.amountApproved)}, ${p(row.amountFunded)}, ${p(row.noteEnc)}, ${p(row.wasApproved)}, true)`,
        params,
      );
    },

    /** Erasure of personal data: the notes go, the decisions stay. */
    async eraseNotes(leadId: string, tx: Queryable = db): Promise<void> {
      await tx.query('update lead_outcomes set note_enc = null where lead_id = $1 and note_enc is not null', [leadId]);
    },
  };
}

export type OutcomesRepository = ReturnType<typeof createOutcomesRepository>;
