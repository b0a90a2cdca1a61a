/**
 * The documents of a lead's page (documents.views.ts): a document's bytes, inline with the same inert
 * headers as the lender's API and audited the same way (every role), and the review (officers and
 * admins), which lands back on the lead's page with a notice, a refusal included.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { documentHeaders, REJECTION_REASONS, type DocumentsService } from '../documents/index.ts';
import { AppError, policy } from '../http/index.ts';
import { uuidPattern } from '../shared/index.ts';
import { everyone, originOf, seeOther, type NoticeKey } from './console-request.ts';
import { documentsAnchor } from './documents.views.ts';

export interface DocumentsPagesDeps {
  documents: Pick<DocumentsService, 'list' | 'content' | 'review'>;
}

const DocumentParams = Type.Object({
  leadId: Type.String({ pattern: uuidPattern }),
  documentId: Type.String({ pattern: uuidPattern }),
});
const ReviewForm = Type.Object({
  _csrf: Type.String(),
  status: Type.Union([Type.Literal('ACCEPTED'), Type.Literal('REJECTED')]),
  // Empty when no reason was chosen.
  rejectionReason: Type.Optional(Type.Union([Type.Literal(''), ...REJECTION_REASONS.map((r) => Type.Literal(r))])),
});

const leadPage = (leadId: string, notice: NoticeKey) => `/console/leads/${leadId}?notice=${notice}#${documentsAnchor}`;

export const documentsRoutes =
  (deps: DocumentsPagesDeps): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Params: Static<typeof DocumentParams> }>(
      '/leads/:leadId/documents/:documentId',
      { config: everyone, schema: { hide: true, params: DocumentParams } },
      async (request, reply) => {
        const { leadId, documentId } = request.params;
        const { document, body } = await deps.documents.content(originOf(request), leadId, documentId);
        // The page's own policy gives way to the document's: `sandbox`, nothing of it runs.
        reply.headers({ ...documentHeaders(document, 'inline'), 'content-length': String(document.size) });
        return reply.send(Readable.from(body));
      },
    );

    app.post<{ Params: Static<typeof DocumentParams>; Body: Static<typeof ReviewForm> }>(
      '/leads/:leadId/documents/:documentId/review',
      { config: policy({ roles: ['officer'] }), schema: { hide: true, params: DocumentParams, body: ReviewForm } },
      async (request, reply) => {
        const { leadId, documentId } = request.params;
        const { status } = request.body;
        const rejectionReason = request.body.rejectionReason || undefined;
        if (status === 'REJECTED' && !rejectionReason)
          return seeOther(reply, leadPage(leadId, 'document-reason-missing'));
        if (status === 'ACCEPTED' && rejectionReason)
          return seeOther(reply, leadPage(leadId, 'document-reason-not-taken'));
        try {
          await deps.documents.review(originOf(request), leadId, documentId, { status, rejectionReason });
        } catch (error) {
          if (!(error instanceof AppError) || error.statusCode !== 409) throw error;
          return seeOther(reply, leadPage(leadId, 'document-already-reviewed'));
        }
        return seeOther(reply, leadPage(leadId, status === 'ACCEPTED' ? 'document-accepted' : 'document-rejected'));
      },
    );
  };
