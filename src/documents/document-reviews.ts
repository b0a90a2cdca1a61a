/**
 * The lender's review of a document (docs/lender-api.md, "Documents"): accepted or rejected once, with
 * the `lead.document_reviewed` event (the condition's new status) and an audit record in one transaction.
 */
import { errors } from '../http/index.ts';
import { newId } from '../shared/index.ts';
import type { AuditOrigin } from '../audit/index.ts';
import type { DocumentsDeps } from './document-deps.ts';
import { documentViewOf, eventDocument, statusOf, type DocumentView } from './document-views.ts';
import type { DocumentRow, RejectionReason } from './documents.repository.ts';

export interface ReviewDecision {
  status: 'ACCEPTED' | 'REJECTED';
  rejectionReason?: RejectionReason;
}

/** Who reviews in the sandbox: files named `aceptar-…` and `rechazar-…` are reviewed at once, unaudited. */
export const sandboxReviewer: AuditOrigin = Object.freeze({
  operatorId: 'sandbox',
  requestId: null,
  clientAddress: null,
});

export function createDocumentReview(deps: DocumentsDeps) {
  const { repository } = deps;
  const view = documentViewOf(deps.sealing);
  return async function review(
    origin: AuditOrigin,
    leadId: string,
    documentId: string,
    decision: ReviewDecision,
  ): Promise<DocumentView> {
    const id = leadId.toLowerCase();
    return deps.db.transaction(async (tx) => {
      // The lead first, as an upload takes it: a review and an upload of one lead never wait on each other in turn.
      const lead = await deps.leads.lockForOutcome(id, tx);
      const row = lead && (await repository.find(id, documentId.toLowerCase(), tx, true));
      if (!lead || !row) throw errors.documentNotFound();
      if (row.status !== 'RECEIVED') throw errors.documentReviewed();
      await deps.sealing.forReading([id], tx);
      const reviewed: DocumentRow = {
        ...row,
        status: decision.status,
        rejectionReason: decision.rejectionReason ?? null,
        reviewedAt: deps.clock.now(),
        reviewedBy: origin.operatorId,
      };
      const siblings = (await repository.list(id, tx)).filter((d) => d.conditionId === row.conditionId);
      const document = view(reviewed);
      const event = {
        id: newId(),
        type: 'lead.document_reviewed' as const,
        document: eventDocument(document),
        condition: { id: row.conditionId, status: statusOf(siblings.map((d) => (d.id === row.id ? reviewed : d))) },
      };
      await repository.review({ ...reviewed, reviewedAt: reviewed.reviewedAt! }, lead, event, tx);
      if (origin !== sandboxReviewer) await deps.audit.record(origin, { action: 'document_review', leadId: id }, tx);
      return document;
    });
  };
}

export type DocumentReview = ReturnType<typeof createDocumentReview>;
