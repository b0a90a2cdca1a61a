/** SQL for leads, their events and idempotency keys. Every method takes an optional transaction. */
import type { Queryable } from '../db/index.ts';
import { leadStatusSql as statusSql, type LeadStatus } from '../lead-status/index.ts';
// The company's list filters and shows leads by their current outcome: a read of lead_outcomes inside
// the list's statement (a subquery), through the SQL the outcomes module gives.
import { outcomeSql, type OutcomeStatus } from '../outcomes/index.ts';
import { outboxCtes, type OutboxEvent } from '../webhooks/index.ts';
import { ERASED_REASON_MESSAGES } from '../prequalification/index.ts';

export interface LeadRow {
  id: string;
  company_id: string;
  affiliate_user_id: string | null;
  affiliate_user_type: string | null;
  status: LeadStatus;
  external_auto_id: string | null;
  loan_info: object | null;
  phone_enc: string | null;
  phone_fp: string | null;
  email_enc: string | null;
  address_enc: string | null;
  vehicle: object | null;
  financial_enc: string | null;
  person_enc: string | null;
  warnings: { code: string; message: string; field: string }[];
  verification: object | null;
  prequalification: object | null;
  created_at: Date;
  updated_at: Date;
  /** When the lender erased the lead's personal data (null until then). */
  erased_at?: Date | null;
  /** The status of the lender's current outcome (lists only). */
  outcome_status?: OutcomeStatus | null;
  /** A legal hold keeping the personal data (docs/lender-api.md, "Erasure and retention"). */
  legal_hold?: LegalHold | null;
}

export interface LegalHold {
  reason: string;
  since: string;
  operatorId: string;
}

/** Columns a write may change, and whether they hold JSON. */
const writable = {
  status: false,
  external_auto_id: false,
  loan_info: true,
  phone_enc: false,
  phone_fp: false,
  email_enc: false,
  address_enc: false,
  vehicle: true,
  financial_enc: false,
  person_enc: false,
  warnings: true,
  verification: true,
  prequalification: true,
} as const;
export type LeadChanges = Partial<Pick<LeadRow, keyof typeof writable>>;

export interface LeadEvent {
  id: string;
  leadId: string;
  type: string;
  at: Date;
  actor: string;
  fields: string[];
}

export type NewLead = Omit<LeadRow, 'verification' | 'prequalification'>;

export interface SectionWrite {
  /** The lead id in its stored (lower-case) form. */
  id: string;
  companyId: string;
  at: Date;
  set: LeadChanges;
  mergeLoanInfo?: object;
  warnings?: { field: string; list: { code: string; message: string; field: string }[] };
  /**
   * `verified`: refused once verified; `keepsPhone`: refused once verified unless the phone stays the one
   * of these fingerprints (one per key the fingerprints may have been written with).
   */
  frozen: 'never' | 'verified' | { keepsPhone: string[] };
  /** The write seals personal values: refused (no row changed) once the lead's personal data was erased. */
  personal: boolean;
  event: { id: string; type: string; actor: string; fields: string[] };
  /** The webhook event of the change. */
  outbox: OutboxEvent;
}

/**
 * A move on a lead's verified path (PIN sent, verified, bureau report received, pre-qualified): its
 * columns, its history entry and, when partners hear of it, its webhook event.
 */
export interface Transition {
  id: string;
  companyId: string;
  at: Date;
  set: LeadChanges;
  history: { id: string; type: string; actor: string; fields: string[] };
  outbox?: OutboxEvent;
}

export interface LeadFilter {
  status?: LeadStatus;
  /** Only leads whose current outcome has this status. */
  outcome?: OutcomeStatus;
  /** Without a status filter, leads that are still empty (CREATED) are not listed. */
  excludeEmpty: boolean;
  createdFrom?: Date;
  createdTo?: Date;
  after?: { createdAt: Date; id: string };
  limit: number;
}

const columns = Object.keys(writable) as (keyof typeof writable)[];
const toJson = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** `column = $n` for each change, JSON columns cast. */
function setClauses(changes: LeadChanges, p: (value: unknown) => string): string[] {
  return columns
    .filter((column) => column in changes)
    .map((column) => `${column} = ${writable[column] ? `${p(toJson(changes[column]))}::jsonb` : p(changes[column])}`);
}

/** The parameters of a new lead's insert and its history entry, numbered as the statement reads them. */
function insertParams(row: NewLead, event: LeadEvent): unknown[] {
  return [
    row.id,
    row.company_id,
    row.affiliate_user_id,
    row.affiliate_user_type,
    row.status,
    row.external_auto_id,
    toJson(row.loan_info),
    row.phone_enc,
    row.phone_fp,
    row.email_enc,
    row.address_enc,
    toJson(row.vehicle),
    row.financial_enc,
    row.person_enc,
    JSON.stringify(row.warnings),
    row.created_at,
    row.updated_at,
    event.id,
    event.type,
    event.at,
    event.actor,
    JSON.stringify(event.fields),
  ];
}

/** The writes that change a lead with its history entry and its webhook event, each in one statement. */
function createLeadChanges(db: Queryable) {
  return {
    /** The new lead, its history entry and its webhook event, in one statement. */
    async insert(row: NewLead, event: LeadEvent, outbox: OutboxEvent, tx: Queryable = db): Promise<void> {
      const params = insertParams(row, event);
      const p = (value: unknown) => `$${params.push(value)}`;
      await tx.query(
        `with lead as (
           insert into leads (id, company_id, affiliate_user_id, affiliate_user_type, status, external_auto_id,
             loan_info, phone_enc, phone_fp, email_enc, address_enc, vehicle, financial_enc, person_enc, warnings,
             created_at, updated_at)
           values ($1,$2,$3,$4,$5,$6,$7::jsonb,$8,$9,$10,$11,$12::jsonb,$13,$14,$15::jsonb,$16,$17)
           returning id, company_id, external_auto_id, status
         ), ${outboxCtes('lead', outbox, '$16', p)}
         insert into lead_events (id, lead_id, type, at, actor, fields)
         select $18, id, $19, $20, $21, $22::jsonb from lead`,
        params,
      );
    },

    /**
     * One status move in one statement: the columns, the history entry and the webhook event.
     * The caller holds the lead's lock. False when the lead is not that company's.
     */
    async transition(change: Transition, tx: Queryable): Promise<boolean> {
      const params: unknown[] = [change.id, change.companyId, change.at];
      const p = (value: unknown) => `$${params.push(value)}`;
      const sets = setClauses(change.set, p);
      const { rows } = await tx.query(
        `with updated as (
           update leads set ${[...sets, 'updated_at = $3'].join(', ')} where id = $1 and company_id = $2
           returning id, company_id, external_auto_id, status
         ), history as (
           insert into lead_events (id, lead_id, type, at, actor, fields)
           select ${p(change.history.id)}, id, ${p(change.history.type)}, $3,
             ${p(change.history.actor)}, ${p(JSON.stringify(change.history.fields))}::jsonb from updated
         )${change.outbox ? `, ${outboxCtes('updated', change.outbox, '$3', p)}` : ''}
         select id from updated`,
        params,
      );
      return rows.length === 1;
    },

    /**
     * Saves one section in a single statement: the change, the status move out of CREATED and the
     * event land together, and the row lock of the UPDATE orders concurrent writes to one lead.
     * Loan info is merged and one field's warnings replaced inside the statement, so two writes
     * never overwrite each other's parts. Undefined when no row was changed (unknown, or frozen).
     */
    async saveSection(write: SectionWrite, tx: Queryable = db): Promise<{ status: LeadStatus } | undefined> {
      const params: unknown[] = [write.id, write.companyId, write.at];
      const p = (value: unknown) => `$${params.push(value)}`;
      const sets = setClauses(write.set, p);
      if (write.mergeLoanInfo)
        sets.push(`loan_info = coalesce(loan_info, '{}'::jsonb) || ${p(JSON.stringify(write.mergeLoanInfo))}::jsonb`);
      if (write.warnings) {
        sets.push(`warnings = coalesce((select jsonb_agg(w) from jsonb_array_elements(warnings) w
          where w->>'field' <> ${p(write.warnings.field)}), '[]'::jsonb)
          || ${p(JSON.stringify(write.warnings.list))}::jsonb`);
      }
      const verified = statusSql.isVerified;
      const guard =
        write.frozen === 'never'
          ? ''
          : write.frozen === 'verified'
            ? `and not ${verified}`
            : `and (not ${verified} or phone_fp = any(${p(write.frozen.keepsPhone)}::text[]))`;
      const { rows } = await tx.query<{ status: LeadStatus }>(
        `with updated as (
           update leads set ${sets.join(', ')}, status = ${statusSql.afterSectionSaved}, updated_at = $3
           where id = $1 and company_id = $2 ${guard} ${write.personal ? 'and erased_at is null' : ''}
           returning id, company_id, external_auto_id, status
         ), event as (
           insert into lead_events (id, lead_id, type, at, actor, fields)
           select ${p(write.event.id)}, id, ${p(write.event.type)}, $3,
             ${p(write.event.actor)}, ${p(JSON.stringify(write.event.fields))}::jsonb from updated
         ), ${outboxCtes('updated', write.outbox, '$3', p)}
         select status from updated`,
        params,
      );
      return rows[0];
    },
  };
}

/** Reads of leads and their history, and the row locks that order writes to one lead. */
function createLeadReads(db: Queryable) {
  return {
    /** The lead of that company, locked until the transaction ends (writes to one lead queue up). */
    async lock(id: string, companyId: string, tx: Queryable): Promise<LeadRow | undefined> {
      const { rows } = await tx.query<LeadRow>('select * from leads where id = $1 and company_id = $2 for update', [
        id,
        companyId,
      ]);
      return rows[0];
    },

    /** Any company's lead, locked until the transaction ends (the lender's outcome of it). */
    /**
     * A change recorded on the lead by another module (the lender's decision): its `updatedAt` moves and
     * its history gets the entry, so a partner polling by `updatedAt` or reading the events sees it.
     */
    async touch(
      id: string,
      at: Date,
      history: { id: string; type: string; actor: string; fields: string[] },
      tx: Queryable,
    ): Promise<void> {
      await tx.query(
        `with touched as (
           update leads set updated_at = greatest(updated_at, $2) where id = $1 returning id
         )
         insert into lead_events (id, lead_id, type, at, actor, fields)
         select $3, id, $4, $2, $5, $6::jsonb from touched`,
        [id, at, history.id, history.type, history.actor, JSON.stringify(history.fields)],
      );
    },

    async lockById(id: string, tx: Queryable): Promise<LeadRow | undefined> {
      const { rows } = await tx.query<LeadRow>('select * from leads where id = $1 for update', [id]);
      return rows[0];
    },

    /** The company of the lead; undefined when there is no such lead. */
    async companyOf(id: string): Promise<string | undefined> {
      const { rows } = await db.query<{ company_id: string }>('select company_id from leads where id = $1', [id]);
      return rows[0]?.company_id;
    },

    async find(id: string, companyId: string, tx: Queryable = db): Promise<LeadRow | undefined> {
      const { rows } = await tx.query<LeadRow>('select * from leads where id = $1 and company_id = $2', [
        id,
        companyId,
      ]);
      return rows[0];
    },

    async events(leadId: string, tx: Queryable = db): Promise<LeadEvent[]> {
      const { rows } = await tx.query<{
        id: string;
        lead_id: string;
        type: string;
        at: Date;
        actor: string;
        fields: string[];
      }>('select id, lead_id, type, at, actor, fields from lead_events where lead_id = $1 order by seq', [leadId]);
      return rows.map((r) => ({
        id: r.id,
        leadId: r.lead_id,
        type: r.type,
        at: r.at,
        actor: r.actor,
        fields: r.fields,
      }));
    },

    /** Newest first; the cursor is the (created_at, id) of the last lead of the previous page. */
    async list(companyId: string, filter: LeadFilter, tx: Queryable = db): Promise<LeadRow[]> {
      const where = ['company_id = $1'];
      const params: unknown[] = [companyId];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        where.push(sql.replace('?', `$${params.length}`));
      };
      if (filter.status) add('status = ?', filter.status);
      // A lead with an outcome was verified, so is never CREATED: the outcome's condition alone says it,
      // and the page's ids are then found on the company's keyset index alone (outcomeSql.page).
      else if (filter.excludeEmpty && !filter.outcome) add('status <> ?', 'CREATED');
      if (filter.outcome) add(outcomeSql.is('leads.id', '?'), filter.outcome);
      if (filter.createdFrom) add('created_at >= ?', filter.createdFrom);
      if (filter.createdTo) add('created_at < ?', filter.createdTo);
      if (filter.after) {
        params.push(filter.after.createdAt, filter.after.id);
        where.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
      }
      params.push(filter.limit);
      const columns = `*, ${outcomeSql.statusOf('leads.id')} as outcome_status`;
      const { rows } = await tx.query<LeadRow>(
        outcomeSql.page(columns, where, `$${params.length}`, filter.outcome !== undefined),
        params,
      );
      return rows;
    },
  };
}

/** The figure-free message of each reason code whose stored message may read the applicant's data. */
const erasedMessages = JSON.stringify(ERASED_REASON_MESSAGES);

/**
 * The stored decision with those reasons' messages replaced, from the map `messages` (code → message): the
 * `reasons` list, and each rule's `reason` in the explanation. A decision without them is left as it is.
 */
function erasedPrequalificationSql(messages: string): string {
  const reasons = (list: string, reason: string, path: string) =>
    `(select coalesce(jsonb_agg(case when ${messages} ? (${reason}->>'code')
        then jsonb_set(r, '${path}', ${messages} -> (${reason}->>'code')) else r end order by n), '[]'::jsonb)
      from jsonb_array_elements(${list}) with ordinality as e(r, n))`;
  const listed = `case when jsonb_typeof(prequalification->'reasons') = 'array'
      then jsonb_set(prequalification, '{reasons}', ${reasons(`prequalification->'reasons'`, 'r', '{message}')})
      else prequalification end`;
  return `case when jsonb_typeof(prequalification->'explanation'->'rules') = 'array'
      then jsonb_set(${listed}, '{explanation,rules}',
        ${reasons(`prequalification->'explanation'->'rules'`, `(r->'reason')`, '{reason,message}')})
      else ${listed} end`;
}
const erasedPrequalification = erasedPrequalificationSql('$7::jsonb');

/** Writes without a webhook event: a plain update, the erasure of personal data, idempotency keys. */
function createLeadUpkeep(db: Queryable) {
  return {
    async update(id: string, changes: LeadChanges, updatedAt: Date, tx: Queryable = db): Promise<void> {
      const sets: string[] = [];
      const params: unknown[] = [id, updatedAt];
      for (const column of columns) {
        if (!(column in changes)) continue;
        const value = changes[column];
        params.push(writable[column] ? toJson(value) : value);
        sets.push(`${column} = $${params.length}${writable[column] ? '::jsonb' : ''}`);
      }
      await tx.query(`update leads set ${[...sets, 'updated_at = $2'].join(', ')} where id = $1`, params);
    },

    /**
     * Clears every sealed section, the phone's fingerprint and the warnings about those sections, and
     * writes the history entry, in one statement; the lead keeps its status, decision, reasons, loan
     * info, vehicle and events. A reason whose message an earlier version wrote with the applicant's
     * figures keeps its code with a message without them (in `reasons` and in the explanation).
     * Undefined for an unknown lead.
     */
    async erasePersonalData(
      id: string,
      at: Date,
      history: { id: string; type: string; actor: string; fields: string[] },
      tx: Queryable,
    ): Promise<{ id: string } | undefined> {
      const { rows } = await tx.query<{ id: string }>(
        `with erased as (
           update leads set phone_enc = null, phone_fp = null,
             email_enc = null, address_enc = null, financial_enc = null,
             person_enc = null, warnings = '[]'::jsonb, erased_at = coalesce(erased_at, $2), updated_at = $2,
             prequalification = ${erasedPrequalification}
           where id = $1 returning id
         ), history as (
           insert into lead_events (id, lead_id, type, at, actor, fields)
           select $3, id, $4, $2, $5, $6::jsonb from erased
         )
         select id from erased`,
        [id, at, history.id, history.type, history.actor, JSON.stringify(history.fields), erasedMessages],
      );
      return rows[0];
    },

    /** Claims an idempotency key; returns the lead of an earlier claim when the key was taken. */
    async claimIdempotencyKey(
      claim: { companyId: string; key: string; requestHash: string; leadId: string; at: Date; expiredBefore: Date },
      tx: Queryable,
    ): Promise<{ claimed: true } | { claimed: false; requestHash: string; leadId: string }> {
      await tx.query('delete from idempotency_keys where company_id = $1 and key = $2 and created_at < $3', [
        claim.companyId,
        claim.key,
        claim.expiredBefore,
      ]);
      const inserted = await tx.query(
        `insert into idempotency_keys (company_id, key, request_hash, lead_id, created_at) values ($1,$2,$3,$4,$5)
         on conflict (company_id, key) do nothing`,
        [claim.companyId, claim.key, claim.requestHash, claim.leadId, claim.at],
      );
      if (inserted.rowCount === 1) return { claimed: true };
      const { rows } = await tx.query<{ request_hash: string; lead_id: string }>(
        'select request_hash, lead_id from idempotency_keys where company_id = $1 and key = $2',
        [claim.companyId, claim.key],
      );
      return { claimed: false, requestHash: rows[0].request_hash, leadId: rows[0].lead_id };
    },
  };
}

/** The lender's legal hold of a lead (docs/lender-api.md, "Erasure and retention"). */
function createLeadHolds(db: Queryable) {
  return {
    /** Sets the lead's legal hold; a second one replaces the reason and keeps `since`. Undefined: no such lead. */
    async setLegalHold(id: string, hold: LegalHold, tx: Queryable = db): Promise<LegalHold | undefined> {
      const { rows } = await tx.query<{ legal_hold: LegalHold }>(
        `update leads set legal_hold = $2::jsonb || jsonb_build_object('since', coalesce(legal_hold->>'since', $3))
         where id = $1 returning legal_hold`,
        [id, JSON.stringify({ reason: hold.reason, operatorId: hold.operatorId }), hold.since],
      );
      return rows[0]?.legal_hold;
    },

    /** Releases the lead's legal hold; false when it had none (or there is no such lead). */
    async releaseLegalHold(id: string, tx: Queryable = db): Promise<boolean> {
      const { rowCount } = await tx.query(
        'update leads set legal_hold = null where id = $1 and legal_hold is not null',
        [id],
      );
      return rowCount === 1;
    },
  };
}

export function createLeadsRepository(db: Queryable) {
  return { ...createLeadChanges(db), ...createLeadReads(db), ...createLeadUpkeep(db), ...createLeadHolds(db) };
}

export type LeadsRepository = ReturnType<typeof createLeadsRepository>;
