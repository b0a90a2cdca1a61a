/** Schemas of documents (docs/api.md, "Documents"): the document, its list, the lender's review. */
import { Type } from 'typebox';
import { uuidPattern } from '../shared/index.ts';
import { DOCUMENT_CONTENT_TYPES } from './document-content.ts';
import { DOCUMENT_STATUSES, DOCUMENT_TYPES, REJECTION_REASONS } from './documents.repository.ts';

const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const LeadParams = Type.Object({
  leadId: Type.String({ pattern: uuidPattern, description: 'Lead id (uuid)' }),
});

export const DocumentParams = Type.Object({
  leadId: Type.String({ pattern: uuidPattern, description: 'Lead id (uuid)' }),
  documentId: Type.String({ pattern: uuidPattern, description: 'Document id (uuid)' }),
});

const example = {
  id: '3d6f0a57-8b0e-4c5f-9a41-1f2e3d4c5b6a',
  conditionId: 'cond_4f1c2a9e7b3d5e6f8a0b',
  type: 'PROOF_OF_INCOME',
  fileName: 'recibos-nomina.pdf',
  contentType: 'application/pdf',
  size: 183422,
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  status: 'RECEIVED',
  rejectionReason: null,
  uploadedAt: '2026-01-16T10:30:00.000Z',
  reviewedAt: null,
};

export const Document = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    conditionId: Type.String({ description: 'The condition of the lead’s decision the document answers' }),
    type: Type.Enum(DOCUMENT_TYPES),
    fileName: nullable(Type.String({ description: 'As uploaded; null once the lead’s personal data is erased' })),
    contentType: Type.Enum(DOCUMENT_CONTENT_TYPES, { description: 'What the bytes are, whatever was declared' }),
    size: Type.Integer({ minimum: 1, description: 'Bytes' }),
    sha256: nullable(Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Lowercase hex; null once erased' })),
    status: Type.Enum(DOCUMENT_STATUSES),
    rejectionReason: Type.Union([Type.Enum(REJECTION_REASONS), Type.Null()]),
    uploadedAt: Type.String({ format: 'date-time' }),
    reviewedAt: nullable(Type.String({ format: 'date-time' })),
  },
  { examples: [example] },
);

/** What an event carries of a document: no file name, no digest. */
export const EventDocument = Type.Omit(Document, ['fileName', 'sha256']);

export const DocumentList = Type.Object(
  { items: Type.Array(Document, { description: 'Oldest first' }) },
  { examples: [{ items: [example] }] },
);

export const ReviewRequest = Type.Object(
  {
    status: Type.Union([Type.Literal('ACCEPTED'), Type.Literal('REJECTED')]),
    rejectionReason: Type.Optional(Type.Enum(REJECTION_REASONS, { description: 'Required with REJECTED only' })),
  },
  { additionalProperties: false, examples: [{ status: 'REJECTED', rejectionReason: 'ILLEGIBLE' }] },
);

/** The upload's form, as the OpenAPI document describes it (the route reads the parts itself). */
export const UploadForm = Type.Object({
  conditionId: Type.String({ description: 'The `id` of one of the lead’s current conditions' }),
  type: Type.Enum(DOCUMENT_TYPES),
  file: Type.String({
    format: 'binary',
    description: 'PDF, JPEG or PNG, at most 10 MiB (10,485,760 bytes); its file name 1–200 characters',
  }),
});
