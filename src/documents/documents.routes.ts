/**
 * The partner's document routes (docs/api.md, "Documents"): the upload, read as it arrives, and the
 * metadata reads. The multipart parser is registered in this scope only, with the upload's limits.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fastifyMultipart from '@fastify/multipart';
import { Type } from 'typebox';
import { errorAnswers, errors, ok, operation, AppError } from '../http/index.ts';
import { requireAuth } from '../auth/index.ts';
import type { DocumentsService } from './documents.service.ts';
import type { UploadPart } from './document-upload.ts';
import * as s from './documents.schemas.ts';
import { documentsOperations as docs } from './documents.operations.ts';

const tags = ['documents'];
const security = [{ bearerAuth: [] }];

/** The largest file taken: 10 MiB. */
export const maxDocumentBytes = 10 * 1024 * 1024;

const malformedMultipart =
  /^(Unexpected end of (form|file|multipart data)|Malformed part header|Multipart: Boundary not found)/;

/** The multipart parser's refusals as the API's errors. */
export function uploadErrorOf(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return errors.payloadTooLarge();
  if (code === 'FST_FILES_LIMIT') return errors.invalidInput([{ field: 'file', errorDetail: 'must be sent once' }]);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PROTO_VIOLATION') {
    return errors.invalidInput([{ field: 'body', errorDetail: 'has parts an upload does not take' }]);
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return errors.unsupportedContent('NOT_MULTIPART');
  // A malformed body (a part cut off, no closing boundary) as the multipart parser reports it.
  if (error instanceof Error && malformedMultipart.test(error.message)) {
    return errors.invalidInput([{ field: 'body', errorDetail: 'is not a complete multipart/form-data body' }]);
  }
  return error;
}

export const documentsRoutes =
  (deps: { documents: DocumentsService; prefix: string }): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: maxDocumentBytes, files: 2, fields: 8, fieldSize: 1024, parts: 10, headerPairs: 50 },
    });

    app.post(
      '/leads/:leadId/documents',
      {
        schema: {
          tags,
          security,
          ...operation(docs, 'uploadDocument'),
          params: s.LeadParams,
          headers: Type.Object({
            'idempotency-key': Type.Optional(
              Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' }),
            ),
          }),
          'x-multipart-body': s.UploadForm,
          response: {
            201: ok(
              'partner',
              s.Document,
              'Received: the document; `Location` is its path.',
              ['Location'],
              ['Idempotent-Replayed'],
            ),
            ...errorAnswers({ access: 'partner', body: true, cases: docs.uploadDocument.errorCases }),
          },
        },
      },
      async (request, reply) => {
        const auth = requireAuth(request);
        if (!request.isMultipart()) throw errors.unsupportedContent('NOT_MULTIPART');
        const { leadId } = request.params;
        let result;
        try {
          result = await deps.documents.upload(
            auth.companyId,
            leadId,
            request.parts() as AsyncIterable<UploadPart>,
            request.headers['idempotency-key'],
          );
        } catch (error) {
          throw uploadErrorOf(error);
        }
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        const location = `${deps.prefix}/leads/${leadId.toLowerCase()}/documents/${result.document.id}`;
        return reply.code(201).header('cache-control', 'no-store').header('location', location).send(result.document);
      },
    );

    app.get(
      '/leads/:leadId/documents',
      {
        schema: {
          tags,
          security,
          ...operation(docs, 'listDocuments'),
          params: s.LeadParams,
          response: {
            200: ok('partner', s.DocumentList, 'The lead’s documents, oldest first.'),
            ...errorAnswers({ access: 'partner', cases: docs.listDocuments.errorCases }),
          },
        },
      },
      async (request) => ({
        items: await deps.documents.partnerList(requireAuth(request).companyId, request.params.leadId),
      }),
    );

    app.get(
      '/leads/:leadId/documents/:documentId',
      {
        schema: {
          tags,
          security,
          ...operation(docs, 'getDocument'),
          params: s.DocumentParams,
          response: {
            200: ok('partner', s.Document, 'The document.'),
            ...errorAnswers({ access: 'partner', cases: docs.getDocument.errorCases }),
          },
        },
      },
      async (request) =>
        deps.documents.partnerGet(requireAuth(request).companyId, request.params.leadId, request.params.documentId),
    );
  };
