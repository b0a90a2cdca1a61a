/**
 * The stored bureau report of a verified lead: one row per lead in `bureau_reports`, the report and
 * the bureau's raw answer each sealed with the lead's own key and a context bound to the lead, so a
 * ciphertext copied to another lead never decrypts. Every method takes an optional transaction.
 */
import type { Queryable, EncryptedColumn } from '../db/index.ts';
import type { LeadSealing } from '../lead-keys/index.ts';
import type { BureauAnswer, BureauReport } from './report.ts';

export const reportContext = (leadId: string) => `bureau-report:${leadId}`;
export const rawAnswerContext = (leadId: string) => `bureau-raw:${leadId}`;

/** The stored reports' encrypted columns, for key rotation. */
export const reportEncryptedColumns: EncryptedColumn[] = [
  { table: 'bureau_reports', id: 'lead_id', leadOf: 'lead_id', column: 'report_enc', context: reportContext },
  { table: 'bureau_reports', id: 'lead_id', leadOf: 'lead_id', column: 'raw_enc', context: rawAnswerContext },
];

export function createReportStore(db: Queryable, sealing: LeadSealing) {
  return {
    /** Keeps the latest answer of the lead (a new one replaces it). */
    async save(leadId: string, answer: BureauAnswer, receivedAt: Date, tx: Queryable = db): Promise<void> {
      await sealing.forWriting(leadId, tx);
      const reportEnc = sealing.seal(leadId, answer.report, reportContext(leadId));
      const rawEnc = answer.raw === null ? null : sealing.seal(leadId, answer.raw, rawAnswerContext(leadId));
      await tx.query(
        `insert into bureau_reports (lead_id, report_enc, raw_enc, provider, received_at) values ($1, $2, $3, $4, $5)
         on conflict (lead_id) do update set report_enc = excluded.report_enc, raw_enc = excluded.raw_enc,
           provider = excluded.provider, received_at = excluded.received_at`,
        [leadId, reportEnc, rawEnc, answer.report.provider, receivedAt],
      );
    },

    async reportOf(leadId: string, tx: Queryable = db): Promise<BureauReport | undefined> {
      const { rows } = await tx.query<{ report_enc: string }>(
        'select report_enc from bureau_reports where lead_id = $1',
        [leadId],
      );
      if (!rows[0]) return undefined;
      await sealing.forReading([leadId], tx);
      return sealing.open<BureauReport>(leadId, rows[0].report_enc, reportContext(leadId));
    },

    async hasReport(leadId: string, tx: Queryable = db): Promise<boolean> {
      const { rows } = await tx.query('select 1 from bureau_reports where lead_id = $1', [leadId]);
      return rows.length > 0;
    },

    /** Erases the lead's report and raw answer (the lead's personal data is being erased). */
    async erase(leadId: string, tx: Queryable = db): Promise<void> {
      await tx.query('delete from bureau_reports where lead_id = $1', [leadId]);
    },

    /** The bureau's raw answer, for operators' investigations; null when the bureau had none. */
    async rawAnswerOf(leadId: string, tx: Queryable = db): Promise<string | null | undefined> {
      const { rows } = await tx.query<{ raw_enc: string | null }>(
        'select raw_enc from bureau_reports where lead_id = $1',
        [leadId],
      );
      if (!rows[0]) return undefined;
      if (rows[0].raw_enc === null) return null;
      await sealing.forReading([leadId], tx);
      return sealing.open<string>(leadId, rows[0].raw_enc, rawAnswerContext(leadId));
    },
  };
}

export type ReportStore = ReturnType<typeof createReportStore>;
