/**
 * SQL of documents (docs/api.md, "Documents"): their metadata, the objects to remove from the store,
 * and the events of an upload and a review, written in the same statement as the change. Only this
 * module writes `lead_documents`, `document_chunks` and `document_orphans`.
 */
import type { Queryable } from '../db/index.ts';
import { outboxCtes, type OutboxEvent } from '../webhooks/index.ts';
import type { DocumentContentType } from './document-content.ts';

export const DOCUMENT_TYPES = [
  'OFFICIAL_ID',
  'PROOF_OF_INCOME',
  'PROOF_OF_ADDRESS',
  'BANK_STATEMENT',
  'OTHER',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_STATUSES = ['RECEIVED', 'ACCEPTED', 'REJECTED'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
export const REJECTION_REASONS = [
  'ILLEGIBLE',
  'EXPIRED',
  'WRONG_DOCUMENT',
  'DATA_MISMATCH',
  'INCOMPLETE',
  'SUSPECTED_ALTERATION',
  'OTHER',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export interface DocumentRow {
  id: string;
  leadId: string;
  companyId: string;
  conditionId: string;
  type: DocumentType;
  fileNameEnc: string | null;
  contentType: DocumentContentType;
  size: number;
  /** The digest, sealed with the lead's key. */
  sha256Enc: string | null;
  /** A plain digest written before digests were sealed (sealed by `sealPlainDigests`); null otherwise. */
  sha256: string | null;
  chunks: number;
  keyEnc: string | null;
  status: DocumentStatus;
  rejectionReason: RejectionReason | null;
  uploadedAt: Date;
  reviewedAt: Date | null;
  reviewedBy: string | null;
  erasedAt: Date | null;
  idempotencyKey: string | null;
  requestHash: string | null;
}

interface StoredRow {
  id: string;
  lead_id: string;
  company_id: string;
  condition_id: string;
  type: DocumentType;
  file_name_enc: string | null;
  content_type: DocumentContentType;
  size: number;
  sha256_enc: string | null;
  sha256: string | null;
  chunks: number;
  key_enc: string | null;
  status: DocumentStatus;
  rejection_reason: RejectionReason | null;
  uploaded_at: Date;
  reviewed_at: Date | null;
  reviewed_by: string | null;
  erased_at: Date | null;
  idempotency_key: string | null;
  request_hash: string | null;
}

const columns =
  'id, lead_id, company_id, condition_id, type, file_name_enc, content_type, size, sha256_enc, sha256, chunks, ' +
  'key_enc, status, rejection_reason, uploaded_at, reviewed_at, reviewed_by, erased_at, idempotency_key, request_hash';

const toRow = (r: StoredRow): DocumentRow => ({
  id: r.id,
  leadId: r.lead_id,
  companyId: r.company_id,
  conditionId: r.condition_id,
  type: r.type,
  fileNameEnc: r.file_name_enc,
  contentType: r.content_type,
  size: Number(r.size),
  sha256Enc: r.sha256_enc,
  sha256: r.sha256,
  chunks: Number(r.chunks),
  keyEnc: r.key_enc,
  status: r.status,
  rejectionReason: r.rejection_reason,
  uploadedAt: r.uploaded_at,
  reviewedAt: r.reviewed_at,
  reviewedBy: r.reviewed_by,
  erasedAt: r.erased_at,
  idempotencyKey: r.idempotency_key,
  requestHash: r.request_hash,
});

/** The lead as an event names it, locked by the caller (the leads module's `lockForOutcome`). */
export interface DocumentSubject {
  id: string;
  companyId: string;
  externalAutoId: string | null;
  status: string;
}

/** The CTE `lead` an event is written from: the subject's columns as parameters (`$1` is its id). */
const leadSource = (subject: DocumentSubject, p: (value: unknown) => string) =>
  `lead as (select $1::uuid as id, ${p(subject.companyId)}::uuid as company_id,
     ${p(subject.externalAutoId)}::text as external_auto_id, ${p(subject.status)}::text as status)`;

/** How many documents a condition has, and whether one of them is accepted. */
export interface ConditionDocuments {
  conditionId: string;
  count: number;
  accepted: boolean;
  /** The status of the most recently uploaded one. */
  latest: DocumentStatus;
}

/** Reads of documents and of what their conditions hold. */
function documentReads(db: Queryable) {
  return {
    /** The lead's documents, oldest first. */
    async list(leadId: string, tx: Queryable = db): Promise<DocumentRow[]> {
      const { rows } = await tx.query<StoredRow>(
        `select ${columns} from lead_documents where lead_id = $1 order by uploaded_at, seq`,
        [leadId],
      );
      return rows.map(toRow);
    },

    async find(leadId: string, documentId: string, tx: Queryable = db, lock = false): Promise<DocumentRow | undefined> {
      const { rows } = await tx.query<StoredRow>(
        `select ${columns} from lead_documents where lead_id = $1 and id = $2${lock ? ' for update' : ''}`,
        [leadId, documentId],
      );
      return rows[0] && toRow(rows[0]);
    },

    /** Each condition of the lead that has documents: how many, whether accepted, the latest's status. */
    async byCondition(leadId: string, tx: Queryable = db): Promise<ConditionDocuments[]> {
      const { rows } = await tx.query<{ condition_id: string; n: string | number; accepted: boolean; latest: string }>(
        `select condition_id, count(*) as n, bool_or(status = 'ACCEPTED') as accepted,
           (array_agg(status order by uploaded_at desc, seq desc))[1] as latest
         from lead_documents where lead_id = $1 group by condition_id`,
        [leadId],
      );
      return rows.map((r) => ({
        conditionId: r.condition_id,
        count: Number(r.n),
        accepted: r.accepted,
        latest: r.latest as DocumentStatus,
      }));
    },

    /** The document uploaded with this key by the company, if any. */
    async byIdempotencyKey(companyId: string, key: string, tx: Queryable): Promise<DocumentRow | undefined> {
      const { rows } = await tx.query<StoredRow>(
        `select ${columns} from lead_documents where company_id = $1 and idempotency_key = $2`,
        [companyId, key],
      );
      return rows[0] && toRow(rows[0]);
    },

    /** Frees a key whose window has passed, so it may name a new upload. */
    async releaseIdempotencyKey(documentId: string, tx: Queryable): Promise<void> {
      await tx.query('update lead_documents set idempotency_key = null where id = $1', [documentId]);
    },
  };
}

/** Writes of documents, each with its event: the upload, the review, the erasure. */
function documentWrites() {
  return {
    /** The new document, its event, and the end of its object's orphan record, in one statement. */
    async insert(row: DocumentRow, subject: DocumentSubject, event: OutboxEvent, tx: Queryable): Promise<void> {
      const params: unknown[] = [row.leadId, row.uploadedAt];
      const p = (value: unknown) => `$${params.push(value)}`;
      const lead = leadSource(subject, p);
      const values = [
        row.id,
        row.companyId,
        row.conditionId,
        row.type,
        row.fileNameEnc,
        row.contentType,
        row.size,
        row.sha256Enc,
        row.chunks,
        row.keyEnc,
        row.status,
        row.idempotencyKey,
        row.requestHash,
      ].map(p);
      await tx.query(
        `with ${lead}, ${outboxCtes('lead', event, '$2', p)},
         adopted as (delete from document_orphans where object_id = ${values[0]}::uuid)
         insert into lead_documents (id, lead_id, company_id, condition_id, type, file_name_enc, content_type, size,
           sha256_enc, chunks, key_enc, status, idempotency_key, request_hash, uploaded_at)
         values (${values[0]}, $1, ${values.slice(1).join(', ')}, $2)`,
        params,
      );
    },

    /** The review of a document and its event, in one statement. */
    async review(
      row: Pick<DocumentRow, 'id' | 'leadId' | 'status' | 'rejectionReason' | 'reviewedBy'> & { reviewedAt: Date },
      subject: DocumentSubject,
      event: OutboxEvent,
      tx: Queryable,
    ): Promise<void> {
      const params: unknown[] = [row.leadId, row.reviewedAt];
      const p = (value: unknown) => `$${params.push(value)}`;
      const lead = leadSource(subject, p);
      await tx.query(
        `with ${lead}, ${outboxCtes('lead', event, '$2', p)}
         update lead_documents set status = ${p(row.status)}, rejection_reason = ${p(row.rejectionReason)},
           reviewed_at = $2, reviewed_by = ${p(row.reviewedBy)}
         where id = ${p(row.id)} and lead_id = $1`,
        params,
      );
    },

    /**
     * Erasure: every document of the lead loses its file name, digest and key (its bytes can no longer be
     * opened), and its object is recorded for removal from the store. The metadata stays.
     */
    async erase(leadId: string, at: Date, tx: Queryable): Promise<number> {
      const { rowCount } = await tx.query(
        `with erased as (
           update lead_documents set file_name_enc = null, sha256_enc = null, sha256 = null, key_enc = null,
             erased_at = $2
           where lead_id = $1 and erased_at is null returning id, chunks
         )
         insert into document_orphans (object_id, chunks, since)
         select id, chunks, '1970-01-01T00:00:00Z'::timestamptz from erased
         on conflict (object_id) do update set since = excluded.since`,
        [leadId, at],
      );
      return rowCount ?? 0;
    },
  };
}

/** The objects of the store to remove, and those being written. */
function orphanRecords(db: Queryable) {
  return {
    /** Records an object being written, so it is removed unless its document is listed in time. */
    async orphanFrom(objectId: string, since: Date): Promise<void> {
      await db.query(
        'insert into document_orphans (object_id, chunks, since) values ($1, null, $2) on conflict do nothing',
        [objectId, since],
      );
    },

    /** Objects to remove: recorded before `before`, oldest first. */
    async dueOrphans(before: Date, limit: number): Promise<{ objectId: string; chunks: number | null }[]> {
      const { rows } = await db.query<{ object_id: string; chunks: number | null }>(
        'select object_id, chunks from document_orphans where since < $1 order by since limit $2',
        [before, limit],
      );
      return rows.map((r) => ({ objectId: r.object_id, chunks: r.chunks === null ? null : Number(r.chunks) }));
    },

    async forgetOrphan(objectId: string): Promise<void> {
      await db.query('delete from document_orphans where object_id = $1', [objectId]);
    },
  };
}

/** Plain digests written before digests were sealed, sealed with their leads' keys a page at a time. */
function plainDigests(db: Queryable) {
  return {
    async plainDigests(limit: number): Promise<{ id: string; leadId: string; sha256: string }[]> {
      const { rows } = await db.query<{ id: string; lead_id: string; sha256: string }>(
        'select id, lead_id, sha256 from lead_documents where sha256 is not null order by id limit $1',
        [limit],
      );
      return rows.map((r) => ({ id: r.id, leadId: r.lead_id, sha256: r.sha256 }));
    },

    /** Puts the sealed form in place of a plain digest, if that is still there (not erased meanwhile). */
    async sealDigest(id: string, plain: string, sealed: string, tx: Queryable): Promise<void> {
      await tx.query(
        'update lead_documents set sha256_enc = $1, sha256 = null where id = $2 and sha256 = $3 and erased_at is null',
        [sealed, id, plain],
      );
    },
  };
}

export function createDocumentsRepository(db: Queryable) {
  return { ...documentReads(db), ...documentWrites(), ...orphanRecords(db), ...plainDigests(db) };
}

export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
