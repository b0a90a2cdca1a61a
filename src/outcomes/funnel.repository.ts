/**
 * The funnel report's one grouped statement: per company, the leads created in a window and how far
 * each got, from the service's verification and pre-qualification to the lender's outcome. The whole
 * UTC days of the window are summed from the per-day counts the migrations' triggers keep
 * (019_funnel_days.sql: leads per status, current outcomes); the part of a day at either end is read
 * lead by lead, from the leads' index on their creation time. It reads the leads, companies and those
 * counts (read-only) beside this module's own outcomes.
 */
import type { Queryable } from '../db/database.ts';

export interface FunnelFilter {
  createdFrom?: Date;
  createdTo?: Date;
  companyId?: string;
}

export interface FunnelCounts {
  created: number;
  verified: number;
  prequalified: number;
  approved: number;
  funded: number;
  fundedAmount: number;
}

export type FunnelLine = FunnelCounts & { companyId: string; companyName: string };

interface StoredLine {
  company_id: string;
  company_name: string;
  created: string | number;
  verified: string | number;
  prequalified: string | number;
  approved: string | number;
  funded: string | number;
  funded_amount: string | number;
}

const dayMs = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface WindowParts {
  /** The whole UTC days of the window (`from` inclusive, `to` exclusive, either open), if it holds any. */
  days?: { from?: string; to?: string };
  /** The parts of a day left at either end, read lead by lead. */
  parts: { from: Date; to: Date }[];
}

/** Splits a creation window into the whole days the per-day counts answer and the rest. */
export function splitWindow(from?: Date, to?: Date): WindowParts {
  const firstDay = from ? Math.ceil(from.getTime() / dayMs) * dayMs : -Infinity;
  const endDay = to ? Math.floor(to.getTime() / dayMs) * dayMs : Infinity;
  if (from && to && firstDay >= endDay) return { parts: from < to ? [{ from, to }] : [] };
  const parts: { from: Date; to: Date }[] = [];
  if (from && firstDay > from.getTime()) parts.push({ from, to: new Date(firstDay) });
  if (to && endDay < to.getTime()) parts.push({ from: new Date(endDay), to });
  return {
    days: { from: from ? isoDay(firstDay) : undefined, to: to ? isoDay(endDay) : undefined },
    parts,
  };
}

export function createFunnelRepository(db: Queryable, verifiedStatuses: readonly string[]) {
  const verifiedList = verifiedStatuses.map((s) => `'${s.replace(/'/g, '')}'`).join(', ');
  return {
    async lines(filter: FunnelFilter, tx: Queryable = db): Promise<FunnelLine[]> {
      const params: unknown[] = [];
      const param = (value: unknown) => `$${params.push(value)}`;
      const company = filter.companyId ? ` and company_id = ${param(filter.companyId)}` : '';
      const { days, parts } = splitWindow(filter.createdFrom, filter.createdTo);
      const leadCounts: string[] = [];
      const outcomeCounts: string[] = [];
      if (days) {
        const within = [
          days.from && `day >= ${param(days.from)}::date`, days.to && `day < ${param(days.to)}::date`,
        ].filter(Boolean).map((c) => ` and ${c}`).join('');
        leadCounts.push(`select company_id, status, leads from funnel_lead_days where true${within}${company}`);
        outcomeCounts.push(
          `select company_id, approved, funded, funded_amount from funnel_outcome_days where true${within}${company}`,
        );
      }
      for (const part of parts) {
        // Only the leads have these columns: unqualified, they name the lead's.
        const created = `created_at >= ${param(part.from)} and created_at < ${param(part.to)}${company}`;
        leadCounts.push(`select company_id, status, count(*) from leads where ${created} group by company_id, status`);
        outcomeCounts.push(
          `select l.company_id, count(*) filter (where o.was_approved), count(*) filter (where o.status = 'FUNDED'),
             coalesce(sum(o.amount_funded) filter (where o.status = 'FUNDED'), 0)
           from leads l join lead_outcomes o on o.lead_id = l.id and o.current
           where ${created} group by l.company_id`,
        );
      }
      if (!leadCounts.length) return [];
      // Grouped by company first, named after: the companies table is joined to one row per company.
      const { rows } = await tx.query<StoredLine>(
        `with lead_count (company_id, status, leads) as (${leadCounts.join(' union all ')}),
         outcome_count (company_id, approved, funded, funded_amount) as (${outcomeCounts.join(' union all ')}),
         line as (
           select company_id, sum(leads) as created,
             coalesce(sum(leads) filter (where status in (${verifiedList})), 0) as verified,
             coalesce(sum(leads) filter (where status = 'PREQUALIFIED'), 0) as prequalified
           from lead_count group by company_id having sum(leads) > 0
         ),
         outcome as (
           select company_id, sum(approved) as approved, sum(funded) as funded, sum(funded_amount) as funded_amount
           from outcome_count group by company_id
         )
         select line.*, coalesce(o.approved, 0) as approved, coalesce(o.funded, 0) as funded,
           coalesce(o.funded_amount, 0) as funded_amount, c.name as company_name
         from line join companies c on c.id = line.company_id left join outcome o on o.company_id = line.company_id
         order by c.name, line.company_id`,
        params,
      );
      return rows.map((r) => ({
        companyId: r.company_id, companyName: r.company_name, created: Number(r.created), verified: Number(r.verified),
        prequalified: Number(r.prequalified), approved: Number(r.approved), funded: Number(r.funded),
        fundedAmount: Number(r.funded_amount),
      }));
    },
  };
}

export type FunnelRepository = ReturnType<typeof createFunnelRepository>;
