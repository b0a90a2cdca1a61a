/**
 * SQL for the audit of personal-data access. Append-only: there is no method to change or delete a
 * record, and the table's rules turn any UPDATE or DELETE into nothing.
 */
import type { Queryable } from '../db/index.ts';

export const AUDIT_ACTIONS = [
  'lead.read',
  'leads.export',
  'lead.personal_data_erased',
  'outcome',
  'backup',
  'keys_reencrypt',
  'personal_data_access',
  'legal_hold_set',
  'legal_hold_released',
  'document_read',
  'document_review',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  id: string;
  at: Date;
  operatorId: string;
  action: AuditAction;
  leadId: string | null;
  filter: Record<string, unknown> | null;
  rows: number | null;
  requestId: string | null;
  clientAddress: string | null;
}

type Row = {
  seq: string;
  id: string;
  at: Date;
  operator_id: string;
  action: AuditAction;
  lead_id: string | null;
  filter: Record<string, unknown> | null;
  row_count: number | null;
  request_id: string | null;
  client_address: string | null;
};

export function createAuditRepository(db: Queryable) {
  return {
    async append(e: AuditEntry, tx: Queryable = db): Promise<void> {
      await tx.query(
        `insert into audit_records (id, at, operator_id, action, lead_id, filter, row_count, request_id, client_address)
         values ($1,$2,$3,$4,$5,$6::jsonb,$7,$8,$9)`,
        [
          e.id,
          e.at,
          e.operatorId,
          e.action,
          e.leadId,
          e.filter === null ? null : JSON.stringify(e.filter),
          e.rows,
          e.requestId,
          e.clientAddress,
        ],
      );
    },

    /** Newest first; `before` is the position of the last record of the previous page. */
    async page(
      limit: number,
      before: bigint | undefined,
      tx: Queryable = db,
    ): Promise<(AuditEntry & { position: string })[]> {
      const { rows } = await tx.query<Row>(
        before === undefined
          ? 'select * from audit_records order by seq desc limit $1'
          : 'select * from audit_records where seq < $2 order by seq desc limit $1',
        before === undefined ? [limit] : [limit, before.toString()],
      );
      return rows.map((r) => ({
        position: String(r.seq),
        id: r.id,
        at: r.at,
        operatorId: r.operator_id,
        action: r.action,
        leadId: r.lead_id,
        filter: r.filter,
        rows: r.row_count,
        requestId: r.request_id,
        clientAddress: r.client_address,
      }));
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
