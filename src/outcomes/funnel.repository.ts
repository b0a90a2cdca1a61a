/**
 * The funnel report's one grouped query: per company, the leads created in a window and how far
 * each got, from the service's verification and pre-qualification to the lender's outcome. It reads
 * the leads and companies tables (read-only) beside this module's own; the leads' covering index on
 * (created_at) with company and status lets it run without visiting the lead rows.
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

export function createFunnelRepository(db: Queryable, verifiedStatuses: readonly string[]) {
  const verifiedList = verifiedStatuses.map((s) => `'${s.replace(/'/g, '')}'`).join(', ');
  return {
    async lines(filter: FunnelFilter, tx: Queryable = db): Promise<FunnelLine[]> {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (sql: string, value: unknown) => where.push(sql.replace('?', `$${params.push(value)}`));
      if (filter.createdFrom) add('l.created_at >= ?', filter.createdFrom);
      if (filter.createdTo) add('l.created_at < ?', filter.createdTo);
      if (filter.companyId) add('l.company_id = ?', filter.companyId);
      // Grouped by company first, named after: the companies table is joined to 20 rows, not 100,000.
      const { rows } = await tx.query<StoredLine>(
        `with line as (
           select l.company_id, count(*) as created,
             count(*) filter (where l.status in (${verifiedList})) as verified,
             count(*) filter (where l.status = 'PREQUALIFIED') as prequalified,
             count(o.lead_id) filter (where o.was_approved) as approved,
             count(o.lead_id) filter (where o.status = 'FUNDED') as funded,
             coalesce(sum(o.amount_funded) filter (where o.status = 'FUNDED'), 0) as funded_amount
           from leads l
           left join lead_outcomes o on o.lead_id = l.id and o.current
           ${where.length ? `where ${where.join(' and ')}` : ''}
           group by l.company_id
         )
         select line.*, c.name as company_name from line join companies c on c.id = line.company_id
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
