/**
 * The funnel report's one grouped statement: per company, the leads created in a window and how far
 * each got, from the service's verification and pre-qualification to the lender's outcome. The whole
 * UTC months of the window are summed from the per-month counts of each stage, the whole days left at
 * either end from the per-day counts (leads per status, current outcomes), both kept by the migrations'
 * triggers (019_funnel_days.sql, 028_funnel_month_stages.sql); the part of a day at either end is read
 * lead by lead, from the leads' index on their creation time. Which statuses count as verified is the
 * database's `funnel_verified`, the same list as src/lead-status (funnel-stages.test.ts). It reads the
 * leads, companies and those counts (read-only) beside this module's own outcomes.
 */
import type { Queryable } from '../db/index.ts';
import { formatIsoDate, utcCalendarDate } from '../shared/index.ts';

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
/**
 * A UTC day as PostgreSQL reads a date: `YYYY-MM-DD`, and five digits for the year 10000, where a window
 * ending on 9999-12-31 in Mexico City ends (toISOString would write `+010000-01-01`).
 */
const isoDay = (ms: number) => formatIsoDate(utcCalendarDate(new Date(ms)));

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

export interface DayRanges {
  /** Whole calendar months, from the per-month counts (`from` inclusive, `to` exclusive, either open). */
  months?: { from?: string; to?: string };
  /** The days before the first whole month and after the last, from the per-day counts. */
  days: { from?: string; to?: string }[];
}

/** A `YYYY-MM-DD` day (five digits for the year 10000) as UTC milliseconds and its parts. */
function dayParts(day: string) {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return { year, month, date, ms: utc(year, month - 1, date) };
}

/** Date.UTC without its reading of years 0–99 as 1900–1999. */
const utc = (year: number, monthIndex: number, date: number) => new Date(0).setUTCFullYear(year, monthIndex, date);

/** The first day of the month of `day`, or of the next month when `up` and `day` is not a first. */
function monthStart(day: string, up: boolean): string {
  const { year, month, date } = dayParts(day);
  return isoDay(utc(year, month - 1 + (up && date > 1 ? 1 : 0), 1));
}

/** Splits whole days into the whole months they hold and the days left at either end. */
export function splitDays(days: { from?: string; to?: string }): DayRanges {
  const firstMonth = days.from === undefined ? undefined : monthStart(days.from, true);
  const endMonth = days.to === undefined ? undefined : monthStart(days.to, false);
  if (firstMonth !== undefined && endMonth !== undefined && dayParts(firstMonth).ms >= dayParts(endMonth).ms) {
    return { days: [days] };
  }
  const edges: { from?: string; to?: string }[] = [];
  if (days.from !== undefined && firstMonth !== days.from) edges.push({ from: days.from, to: firstMonth });
  if (days.to !== undefined && endMonth !== days.to) edges.push({ from: endMonth, to: days.to });
  return { months: { from: firstMonth, to: endMonth }, days: edges };
}

export function createFunnelRepository(db: Queryable) {
  return {
    async lines(filter: FunnelFilter, tx: Queryable = db): Promise<FunnelLine[]> {
      const params: unknown[] = [];
      const param = (value: unknown) => `$${params.push(value)}`;
      const company = filter.companyId ? ` and company_id = ${param(filter.companyId)}` : '';
      const { days, parts } = splitWindow(filter.createdFrom, filter.createdTo);
      // Rows of counts per company, each with the funnel's stages: whole months from the per-month
      // counts, the days around them from the per-day counts, the parts of a day lead by lead.
      const counts: string[] = [];
      const between = (column: string, range: { from?: string; to?: string }) =>
        [range.from && `${column} >= ${param(range.from)}::date`, range.to && `${column} < ${param(range.to)}::date`]
          .filter(Boolean)
          .map((c) => ` and ${c}`)
          .join('');
      const { months, days: dayRanges } = days ? splitDays(days) : { months: undefined, days: [] };
      if (months) {
        counts.push(
          `select company_id, created, verified, prequalified, approved, funded, funded_amount
           from funnel_months where true${between('month', months)}${company}`,
        );
      }
      for (const range of dayRanges) {
        const within = between('day', range);
        counts.push(
          `select company_id, leads, case when funnel_verified(status) then leads else 0 end,
             case when status = 'PREQUALIFIED' then leads else 0 end, 0, 0, 0
           from funnel_lead_days where true${within}${company}`,
          `select company_id, 0, 0, 0, approved, funded, funded_amount
           from funnel_outcome_days where true${within}${company}`,
        );
      }
      for (const part of parts) {
        // created_at and company_id are the lead's (the outcomes have neither). Each lead's current
        // outcome is looked up by its index (`offset 0` keeps the planner from scanning every outcome).
        counts.push(
          `select l.company_id, count(*), count(*) filter (where funnel_verified(l.status)),
             count(*) filter (where l.status = 'PREQUALIFIED'), count(o.lead_id) filter (where o.was_approved),
             count(o.lead_id) filter (where o.status = 'FUNDED'),
             coalesce(sum(o.amount_funded) filter (where o.status = 'FUNDED'), 0)
           from leads l left join lateral (
             select lead_id, status, was_approved, amount_funded from lead_outcomes
             where lead_id = l.id and current offset 0
           ) o on true
           where created_at >= ${param(part.from)} and created_at < ${param(part.to)}${company}
           group by l.company_id`,
        );
      }
      if (!counts.length) return [];
      // Grouped by company first, named after: the companies table is joined to one row per company.
      const { rows } = await tx.query<StoredLine>(
        `with count_row (company_id, created, verified, prequalified, approved, funded, funded_amount) as
           (${counts.join(' union all ')}),
         line as (
           select company_id, sum(created) as created, sum(verified) as verified, sum(prequalified) as prequalified,
             sum(approved) as approved, sum(funded) as funded, sum(funded_amount) as funded_amount
           from count_row group by company_id having sum(created) > 0
         )
         select line.*, c.name as company_name from line join companies c on c.id = line.company_id
         order by c.name, line.company_id`,
        params,
      );
      return rows.map((r) => ({
        companyId: r.company_id,
        companyName: r.company_name,
        created: Number(r.created),
        verified: Number(r.verified),
        prequalified: Number(r.prequalified),
        approved: Number(r.approved),
        funded: Number(r.funded),
        fundedAmount: Number(r.funded_amount),
      }));
    },
  };
}

export type FunnelRepository = ReturnType<typeof createFunnelRepository>;
