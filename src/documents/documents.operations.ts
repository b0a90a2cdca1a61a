/** What the OpenAPI document says of each documents operation, keyed by operationId. */
import { errors, errorCase, operationTable } from '../http/index.ts';

const notFound = errorCase('No such document on this lead', errors.documentNotFound());
/** Every documents route has ids in its path: one that is not a uuid is a 400. */
const badId = errorCase(
  'A lead or document id that is not a uuid, or a malformed path',
  errors.invalidInput([{ field: 'leadId', errorDetail: 'must be a uuid' }]),
);

export const documentsOperations = operationTable({
  uploadDocument: {
    summary: 'Upload a document that answers a condition',
    description:
      'A `multipart/form-data` body with the fields `conditionId` and `type` and one file part `file`, in any ' +
      'order. The lead’s decision must be `CONDITIONED` and `conditionId` one of its conditions. The type is ' +
      'read from the bytes (PDF, JPEG, PNG), whatever the part declares; encrypted PDFs and PDFs with active ' +
      'content are refused. At most 10 MiB, refused as it arrives; 10 documents per condition. An ' +
      '`Idempotency-Key` makes a retry safe: the same fields and bytes within 24 h answer the first document.',
    errorCases: {
      400: [
        errorCase(
          'A missing or invalid field, an empty file, a condition the lead does not have',
          errors.invalidInput([
            { field: 'conditionId', errorDetail: 'is not a condition of the lead' },
            { field: 'file', errorDetail: 'must not be empty' },
          ]),
        ),
        badId,
      ],
      404: [errorCase('No such lead, or another company’s', errors.leadNotFound())],
      409: [
        errorCase('The lead’s decision is not CONDITIONED', errors.documentsNotRequested('NOT_CONDITIONED')),
        errorCase('The condition is already accepted', errors.documentsNotRequested('CONDITION_ACCEPTED')),
        errorCase('The condition has its 10 documents', errors.documentsNotRequested('LIMIT_REACHED')),
        errorCase('The Idempotency-Key was used with other fields or bytes', errors.idempotencyConflict()),
        errorCase(
          'The lender erased the lead’s personal data: no document is kept for it again',
          errors.personalDataErased(new Date('2026-11-02T17:30:00.000Z')),
        ),
      ],
      413: [errorCase('A file over 10 MiB (10,485,760 bytes)', errors.payloadTooLarge())],
      415: [
        errorCase('Bytes that are not a PDF, JPEG or PNG', errors.unsupportedContent('UNSUPPORTED_CONTENT')),
        errorCase('An encrypted PDF', errors.unsupportedContent('ENCRYPTED_PDF')),
        errorCase(
          'A PDF with scripts, launch actions, embedded files or rich media',
          errors.unsupportedContent('ACTIVE_CONTENT'),
        ),
        errorCase('A body that is not multipart/form-data', errors.unsupportedContent('NOT_MULTIPART')),
      ],
      503: [errorCase('The document store cannot be reached; nothing was kept', errors.unavailable())],
    },
  },
  listDocuments: {
    summary: 'The documents of a lead',
    description: 'Metadata only, oldest first. Partners never read a document’s bytes back.',
    errorCases: { 400: [badId], 404: [errorCase('No such lead, or another company’s', errors.leadNotFound())] },
  },
  getDocument: {
    summary: 'One document of a lead',
    errorCases: {
      400: [badId],
      404: [errorCase('No such lead, or another company’s', errors.leadNotFound()), notFound],
    },
  },
  lenderListDocuments: {
    summary: 'The documents of a lead (lender)',
    description: 'Analysts, officers and admins. The same items the partner reads, oldest first.',
    errorCases: { 400: [badId], 404: [errorCase('No such lead', errors.leadNotFound())] },
  },
  documentContent: {
    summary: 'The bytes of a document',
    description:
      'Analysts, officers and admins; audited (`document_read`). Served as an attachment with its stored type, ' +
      '`Cache-Control: no-store`, `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`.',
    errorCases: {
      400: [badId],
      404: [notFound],
      410: [
        errorCase('The lead’s personal data was erased, and the document’s bytes with it', errors.documentErased()),
      ],
      503: [errorCase('The document store cannot be reached', errors.unavailable())],
    },
  },
  reviewDocument: {
    summary: 'Accept or reject a document',
    description:
      'Officers and admins; audited (`document_review`). `rejectionReason` is required with `REJECTED` and refused ' +
      'with `ACCEPTED`. Sends `lead.document_reviewed`. The decision does not change by itself: the officer ' +
      'approves once the conditions are met.',
    errorCases: {
      400: [
        errorCase(
          'A rejection without its reason, or an acceptance with one',
          errors.invalidInput([{ field: 'rejectionReason', errorDetail: 'is required when status is REJECTED' }]),
        ),
        badId,
      ],
      404: [notFound],
      409: [errorCase('The document was already reviewed', errors.documentReviewed())],
    },
    errorDescriptions: { 403: 'An analyst: only officers and admins review documents.' },
  },
});
