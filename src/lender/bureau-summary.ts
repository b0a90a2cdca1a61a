/** The few figures of a bureau report a loan officer reads; never the report itself. */
import type { BureauReport } from '../bureau/index.ts';

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

export function bureauSummary(report: BureauReport, provider: string): BureauSummary {
  const accounts = report.accounts;
  return {
    provider,
    queriedAt: new Date(report.queriedAt).toISOString(),
    noRecord: !report.recordFound,
    score: report.score,
    // The report lists the person's open accounts.
    openAccounts: accounts.length,
    totalBalance: cents(accounts.reduce((sum, a) => sum + Math.max(0, a.balance), 0)),
    // Past-due amounts when the bureau reports them (Círculo's saldoVencido); the sandbox's count as 0.
    pastDueBalance: cents(accounts.reduce((sum, a) => sum + Math.max(0, a.pastDue ?? 0), 0)),
    worstDelinquencyDays: accounts.reduce((worst, a) => Math.max(worst, a.worstDelinquencyDays), 0),
  };
}
