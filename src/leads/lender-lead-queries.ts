/**
 * The lender's reads of leads: every company's leads, read in pages or batches, counted by status, and
 * those the retention policy is due to erase. Reads only, for src/lender.
 */
import type { Queryable } from '../db/index.ts';
import type { LeadStatus } from '../lead-status/index.ts';
import type { LeadRow } from './leads.repository.ts';
// The lists filter and show leads by their current outcome: a read of lead_outcomes inside this
// statement (a subquery), through the SQL the outcomes module gives.
import { outcomeSql, type OutcomeStatus } from '../outcomes/index.ts';

export interface LenderLeadFilter {
  companyId?: string;
  status?: LeadStatus;
  outcome?: OutcomeStatus;
  decision?: string;
  affiliate?: string;
  createdFrom?: Date;
  createdTo?: Date;
}

export interface StatusCount {
  status: LeadStatus;
  count: number;
}

export type ErasableRow = LeadRow & { erased_at: Date | null };

/** The WHERE conditions of a filter, with their parameters ($1…). */
function conditions(filter: LenderLeadFilter): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.companyId) add('company_id = ?', filter.companyId);
  if (filter.status) add('status = ?', filter.status);
  if (filter.outcome) add(outcomeSql.is('leads.id', '?'), filter.outcome);
  if (filter.decision) add("prequalification->>'decision' = ?", filter.decision);
  if (filter.affiliate) add('affiliate_user_id = ?', filter.affiliate);
  if (filter.createdFrom) add('created_at >= ?', filter.createdFrom);
  if (filter.createdTo) add('created_at < ?', filter.createdTo);
  return { where, params };
}

/** The retention purge's leads ($1 the cutoff, $2 the oldest funding still inside a credit's retention). */
const purgeable = `erased_at is null and updated_at < $1 and legal_hold is null
  and not ${outcomeSql.fundedAfter('leads.id', '$2')}`;

export function createLenderLeadQueries(db: Queryable) {
  return {
    /** Newest first, after the (created_at, id) of the previous page or batch. */
    async list(
      filter: LenderLeadFilter,
      after: { createdAt: Date; id: string } | undefined,
      limit: number,
      tx: Queryable = db,
    ): Promise<ErasableRow[]> {
      const { where, params } = conditions(filter);
      if (after) {
        params.push(after.createdAt, after.id);
        where.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
      }
      params.push(limit);
      const columns = `*, ${outcomeSql.statusOf('leads.id')} as outcome_status`;
      const { rows } = await tx.query<ErasableRow>(
        outcomeSql.page(columns, where, `$${params.length}`, filter.outcome !== undefined),
        params,
      );
      return rows;
    },

    /** How many leads match the filter, per status (statuses without any are absent). */
    async countByStatus(filter: LenderLeadFilter, tx: Queryable = db): Promise<StatusCount[]> {
      const { where, params } = conditions(filter);
      const { rows } = await tx.query<{ status: LeadStatus; count: string | number }>(
        `select status, count(*) as count from leads
          ${where.length ? `where ${where.join(' and ')}` : ''} group by status`,
        params,
      );
      return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
    },

    async find(id: string, tx: Queryable = db): Promise<ErasableRow | undefined> {
      const { rows } = await tx.query<ErasableRow>('select * from leads where id = $1', [id]);
      return rows[0];
    },

    /**
     * The leads the retention purge may erase, oldest first: not erased yet, unchanged before `before`, not
     * under legal hold, and not a credit funded after `creditsFundedAfter` (still inside its retention).
     */
    async unchangedSince(before: Date, creditsFundedAfter: Date, limit: number, tx: Queryable = db): Promise<string[]> {
      const { rows } = await tx.query<{ id: string }>(
        `select id from leads where ${purgeable} order by updated_at, id limit $3`,
        [before, creditsFundedAfter, limit],
      );
      return rows.map((r) => r.id);
    },

    /** How many leads `unchangedSince` would answer without a limit (a purge's dry run counts them all). */
    async countUnchangedSince(before: Date, creditsFundedAfter: Date, tx: Queryable = db): Promise<number> {
      const { rows } = await tx.query<{ count: string }>(`select count(*) as count from leads where ${purgeable}`, [
        before,
        creditsFundedAfter,
      ]);
      return Number(rows[0]!.count);
    },
  };
}

export type LenderLeadQueries = ReturnType<typeof createLenderLeadQueries>;
