/**
 * The lender module's only access to stored bureau reports: read one (sealed) and erase one. Kept in
 * one narrow place so the storage can move without touching the rest of the module.
 */
import type { Queryable } from '../db/database.ts';

export interface StoredReport {
  reportEnc: string;
  provider: string;
  receivedAt: Date;
}

export function createBureauReportStore(db: Queryable) {
  return {
    async reportOf(leadId: string, tx: Queryable = db): Promise<StoredReport | undefined> {
      const { rows } = await tx.query<{ report_enc: string; provider: string; received_at: Date }>(
        'select report_enc, provider, received_at from bureau_reports where lead_id = $1',
        [leadId],
      );
      const r = rows[0];
      return r && { reportEnc: r.report_enc, provider: r.provider, receivedAt: r.received_at };
    },

    async erase(leadId: string, tx: Queryable = db): Promise<void> {
      await tx.query('delete from bureau_reports where lead_id = $1', [leadId]);
    },
  };
}

export type BureauReportStore = ReturnType<typeof createBureauReportStore>;
