/** The few figures of a bureau report a loan officer reads; never the report itself. */
import type { BureauReport } from '../providers/ports.ts';

export interface BureauSummary {
  provider: string;
  queriedAt: string;
  noRecord: boolean;
  score: number | null;
  openAccounts: number;
  totalBalance: number;
  pastDueBalance: number;
  worstDelinquencyDays: number;
}

const cents = (value: number) => Math.round(value * 100) / 100;

/** Accounts may carry a past-due balance (bureaus that report one); others count as 0. */
type Account = BureauReport['accounts'][number] & { pastDueBalance?: number };

export function bureauSummary(report: BureauReport, provider: string): BureauSummary {
  const accounts = report.accounts as Account[];
  return {
    provider,
    queriedAt: new Date(report.queriedAt).toISOString(),
    noRecord: !report.recordFound,
    score: report.score,
    // The report lists the person's open accounts.
    openAccounts: accounts.length,
    totalBalance: cents(accounts.reduce((sum, a) => sum + Math.max(0, a.balance), 0)),
    pastDueBalance: cents(accounts.reduce((sum, a) => sum + Math.max(0, a.pastDueBalance ?? 0), 0)),
    worstDelinquencyDays: accounts.reduce((worst, a) => Math.max(worst, a.worstDelinquencyDays), 0),
  };
}
