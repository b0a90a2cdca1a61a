/**
 * The lender's document routes (docs/lender-api.md, "Documents"): the list, the bytes (audited) and
 * the review. Handlers stay thin.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  documented,
  errorAnswers,
  errors,
  ok,
  operation,
  policy,
  registerAdminGuard,
  requireOperator,
  type FieldError,
  type OperatorResolver,
} from '../http/index.ts';
import type { DocumentsService } from './documents.service.ts';
import * as s from './documents.schemas.ts';
import { DOCUMENT_CONTENT_TYPES } from './document-content.ts';
import { documentsOperations as docs } from './documents.operations.ts';

const tags = ['lender'];
const security = [{ adminToken: [] }];

/** RFC 6266: an ASCII `filename` for old clients, the exact name in `filename*`. */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string | null): string {
  if (!fileName) return kind;
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const exact = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** The headers every answer with a document's bytes carries, the admin API's and the console's alike. */
export function documentHeaders(
  document: { contentType: string; fileName: string | null },
  kind: 'attachment' | 'inline',
) {
  return {
    'content-type': document.contentType,
    'content-disposition': contentDisposition(kind, document.fileName),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': 'sandbox',
  };
}

/** 400 for a reason that does not fit the status. */
export function reviewErrors(body: { status: string; rejectionReason?: string }): FieldError[] {
  if (body.status === 'REJECTED' && !body.rejectionReason) {
    return [{ field: 'rejectionReason', errorDetail: 'is required when status is REJECTED' }];
  }
  if (body.status === 'ACCEPTED' && body.rejectionReason !== undefined) {
    return [{ field: 'rejectionReason', errorDetail: 'is not taken when status is ACCEPTED' }];
  }
  return [];
}

export const adminDocumentsRoutes =
  (deps: { documents: DocumentsService; adminToken: string; operators: OperatorResolver }): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerAdminGuard(app, deps.adminToken, deps.operators);
    const originOf = (request: Parameters<typeof requireOperator>[0]) => ({
      operatorId: requireOperator(request).operatorId,
      requestId: request.id,
      clientAddress: request.ip,
    });

    app.get(
      '/admin/leads/:leadId/documents',
      {
        config: policy({ roles: ['analyst', 'officer'] }),
        schema: {
          tags,
          security,
          ...operation(docs, 'lenderListDocuments'),
          params: s.LeadParams,
          response: {
            200: ok('admin', s.DocumentList, 'The lead’s documents, oldest first.'),
            ...errorAnswers({ access: 'admin', cases: docs.lenderListDocuments.errorCases }),
          },
        },
      },
      async (request) => ({ items: await deps.documents.list(request.params.leadId) }),
    );

    app.get(
      '/admin/leads/:leadId/documents/:documentId/content',
      {
        config: policy({ roles: ['analyst', 'officer'] }),
        schema: {
          tags,
          security,
          ...operation(docs, 'documentContent'),
          params: s.DocumentParams,
          response: {
            200: documented(
              {
                description: 'The bytes',
                content: Object.fromEntries(
                  DOCUMENT_CONTENT_TYPES.map((type) => [type, { schema: Type.String({ format: 'binary' }) }]),
                ),
              } as never,
              {
                description: 'The bytes, as an attachment, with their size in Content-Length.',
                headers: ['X-Request-Id'],
              },
            ),
            ...errorAnswers({ access: 'admin', cases: docs.documentContent.errorCases }),
          },
        },
      },
      async (request, reply) => {
        const { leadId, documentId } = request.params;
        const { document, body } = await deps.documents.content(originOf(request), leadId, documentId);
        reply.headers({ ...documentHeaders(document, 'attachment'), 'content-length': String(document.size) });
        return reply.send(Readable.from(body));
      },
    );

    app.post(
      '/admin/leads/:leadId/documents/:documentId/review',
      {
        config: policy({ roles: ['officer'] }),
        schema: {
          tags,
          security,
          ...operation(docs, 'reviewDocument'),
          params: s.DocumentParams,
          body: s.ReviewRequest,
          response: {
            200: ok('admin', s.Document, 'The document, reviewed.'),
            ...errorAnswers({
              access: 'admin',
              body: true,
              cases: docs.reviewDocument.errorCases,
              descriptions: docs.reviewDocument.errorDescriptions,
            }),
          },
        },
      },
      async (request, reply) => {
        const fieldErrors = reviewErrors(request.body);
        if (fieldErrors.length > 0) throw errors.invalidInput(fieldErrors);
        const { leadId, documentId } = request.params;
        reply.header('cache-control', 'no-store');
        return deps.documents.review(originOf(request), leadId, documentId, request.body);
      },
    );
  };
