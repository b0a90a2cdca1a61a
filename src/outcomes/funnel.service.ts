/**
 * The funnel report (docs/lender-api.md, "The funnel"): per company, the leads created in a window
 * and how many reached each stage, with the totals. Stages are cumulative counts of the same leads.
 */
import { parseDateFilter } from '../http/index.ts';
import type { FunnelCounts, FunnelRepository } from './funnel.repository.ts';

export interface FunnelQuery {
  createdFrom?: string;
  createdTo?: string;
  companyId?: string;
}

interface Deps {
  repository: FunnelRepository;
}

const zero: FunnelCounts = { created: 0, verified: 0, prequalified: 0, approved: 0, funded: 0, fundedAmount: 0 };
const cents = (value: number) => Math.round(value * 100) / 100;

export function createFunnelService(deps: Deps) {
  return {
    async report(query: FunnelQuery) {
      const items = await deps.repository.lines({
        createdFrom: parseDateFilter(query.createdFrom, 'createdFrom'),
        createdTo: parseDateFilter(query.createdTo, 'createdTo'),
        companyId: query.companyId?.toLowerCase(),
      });
      const totals = { ...zero };
      for (const item of items) {
        for (const key of Object.keys(zero) as (keyof FunnelCounts)[]) totals[key] += item[key];
      }
      totals.fundedAmount = cents(totals.fundedAmount);
      return { items: items.map((i) => ({ ...i, fundedAmount: cents(i.fundedAmount) })), totals };
    },
  };
}

export type FunnelService = ReturnType<typeof createFunnelService>;
