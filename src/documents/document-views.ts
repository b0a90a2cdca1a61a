/**
 * What the partner, the lender and the events see of a document (docs/api.md, "Documents for
 * conditions"), and a condition's status from its documents. The file name and the digest are sealed with
 * the lead's key.
 */
import type { LeadSealing } from '../lead-keys/index.ts';
import { documentKeyContext } from './document-sealing.ts';
import type { DocumentRow, DocumentStatus, DocumentType, RejectionReason } from './documents.repository.ts';

export type ConditionStatus = 'PENDING' | DocumentStatus;

export const fileNameContext = (documentId: string) => `document:${documentId}:file-name`;
export const digestContext = (documentId: string) => `document:${documentId}:sha256`;

/** The sealed columns: each document's key, its file name and its digest, sealed with the lead's key. */
export const documentEncryptedColumns = [
  { table: 'lead_documents', id: 'id', leadOf: 'lead_id', column: 'key_enc', context: documentKeyContext },
  { table: 'lead_documents', id: 'id', leadOf: 'lead_id', column: 'file_name_enc', context: fileNameContext },
  { table: 'lead_documents', id: 'id', leadOf: 'lead_id', column: 'sha256_enc', context: digestContext },
];

export interface DocumentView {
  id: string;
  conditionId: string;
  type: DocumentType;
  fileName: string | null;
  contentType: string;
  size: number;
  sha256: string | null;
  status: DocumentStatus;
  rejectionReason: RejectionReason | null;
  uploadedAt: string;
  reviewedAt: string | null;
}

/** A condition's status from its documents, oldest first: ACCEPTED once one is, else the latest's. */
export const statusOf = (documents: readonly Pick<DocumentRow, 'status'>[]): ConditionStatus =>
  documents.some((d) => d.status === 'ACCEPTED') ? 'ACCEPTED' : (documents.at(-1)?.status ?? 'PENDING');

/** What an event says of a document: no file name, no digest. */
export const eventDocument = ({ fileName: _name, sha256: _digest, ...rest }: DocumentView) => rest;

/** The view of a row; the lead's key read before (`forReading`). */
export function documentViewOf(sealing: LeadSealing) {
  return (row: DocumentRow): DocumentView => ({
    id: row.id,
    conditionId: row.conditionId,
    type: row.type,
    fileName:
      row.fileNameEnc === null ? null : sealing.open<string>(row.leadId, row.fileNameEnc, fileNameContext(row.id)),
    contentType: row.contentType,
    size: row.size,
    sha256:
      row.sha256Enc === null ? row.sha256 : sealing.open<string>(row.leadId, row.sha256Enc, digestContext(row.id)),
    status: row.status,
    rejectionReason: row.rejectionReason,
    uploadedAt: row.uploadedAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  });
}
