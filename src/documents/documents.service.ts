/**
 * Documents that answer a `CONDITIONED` decision (docs/api.md, "Documents for conditions";
 * docs/lender-api.md, "Documents"): the partner uploads one against a condition (document-uploads.ts),
 * the lender reads and reviews it (document-reviews.ts), and each condition's status follows its
 * documents. The bytes are sealed with a key of the document's own (document-sealing.ts) and kept in the
 * configured store; a listed document always has its bytes, and bytes no document lists are removed
 * (`sweep`).
 */
import type { Queryable } from '../db/index.ts';
import { errors } from '../http/index.ts';
import type { AuditOrigin } from '../audit/index.ts';
import type { DocumentsDeps } from './document-deps.ts';
import { documentKeyContext } from './document-sealing.ts';
import { answeredByStore } from './document-store.ts';
import { readFile } from './document-upload.ts';
import { createDocumentUploads, maxChunks } from './document-uploads.ts';
import { createDocumentReview } from './document-reviews.ts';
import { digestContext, documentViewOf, type ConditionStatus, type DocumentView } from './document-views.ts';

/** An upload takes at most REQUEST_TIMEOUT_MS (an hour at most): objects older than this without a document go. */
const orphanAfterMs = 60 * 60 * 1000;

export function createDocumentsService(deps: DocumentsDeps) {
  const { repository, store, sealing, clock } = deps;
  const view = documentViewOf(sealing);
  /** The lead's rows with their file names opened. */
  const viewsOf = async (leadId: string) => {
    const rows = await repository.list(leadId);
    if (rows.length > 0) await sealing.forReading([leadId]);
    return rows.map(view);
  };
  const review = createDocumentReview(deps);

  return {
    /** Each condition's status from its documents: ACCEPTED once one is, else the latest's. */
    async conditionStatuses(leadId: string, tx?: Queryable): Promise<Map<string, ConditionStatus>> {
      const summaries = await repository.byCondition(leadId, tx);
      return new Map(summaries.map((s) => [s.conditionId, s.accepted ? 'ACCEPTED' : s.latest]));
    },

    upload: createDocumentUploads(deps, review),

    /** The lender's list: 404 for an unknown lead. */
    async list(leadId: string): Promise<DocumentView[]> {
      const id = leadId.toLowerCase();
      if (!(await deps.leads.companyOf(id))) throw errors.leadNotFound();
      return viewsOf(id);
    },

    /** The partner's list: 404 for an unknown or another company's lead. */
    async partnerList(companyId: string, leadId: string): Promise<DocumentView[]> {
      const id = leadId.toLowerCase();
      if ((await deps.leads.companyOf(id)) !== companyId) throw errors.leadNotFound();
      return viewsOf(id);
    },

    /** The partner's read of one document: the lead first (404 / 4040), then the document (404 / 4045). */
    async partnerGet(companyId: string, leadId: string, documentId: string): Promise<DocumentView> {
      const id = leadId.toLowerCase();
      if ((await deps.leads.companyOf(id)) !== companyId) throw errors.leadNotFound();
      const row = await repository.find(id, documentId.toLowerCase());
      if (!row) throw errors.documentNotFound();
      await sealing.forReading([id]);
      return view(row);
    },

    /** The bytes, chunk by chunk as they are read from the store; audited. 410 once erased. */
    async content(origin: AuditOrigin, leadId: string, documentId: string) {
      const id = leadId.toLowerCase();
      const row = await repository.find(id, documentId.toLowerCase());
      if (!row) throw errors.documentNotFound();
      if (row.erasedAt || !row.keyEnc) throw errors.documentErased();
      await sealing.forReading([id]);
      const key = Buffer.from(sealing.open<string>(id, row.keyEnc, documentKeyContext(row.id)), 'base64');
      // The first chunk is read before answering, so an unreachable store is a 503, not a cut-off body.
      const chunks = readFile(store, { objectId: row.id, key, chunks: row.chunks });
      const first = await answeredByStore(() => chunks.next());
      await deps.audit.record(origin, { action: 'document_read', leadId: id });
      async function* body() {
        if (!first.done) yield first.value;
        yield* chunks;
      }
      return { document: view(row), body: body() };
    },

    review,

    /** Erasure of the lead's personal data, inside its transaction: the documents' keys, names and digests go. */
    erase: (leadId: string, tx: Queryable) => repository.erase(leadId, clock.now(), tx),

    /** Removes from the store the objects of erased documents and of uploads that never completed. */
    async sweep(limit = 100): Promise<number> {
      const due = await repository.dueOrphans(new Date(clock.now().getTime() - orphanAfterMs), limit);
      for (const orphan of due) {
        await store.deleteObject(orphan.objectId, orphan.chunks ?? maxChunks);
        await repository.forgetOrphan(orphan.objectId);
      }
      return due.length;
    },

    /**
     * Seals up to `limit` plain digests written before digests were sealed (each with its lead's key, the
     * lead's values' way); how many it found. An erased document has none to seal.
     */
    async sealPlainDigests(limit = 1000): Promise<number> {
      const plain = await repository.plainDigests(limit);
      for (const row of plain) {
        await deps.db.transaction(async (tx) => {
          await sealing.forWriting(row.leadId, tx);
          const sealed = sealing.seal(row.leadId, row.sha256, digestContext(row.id));
          await repository.sealDigest(row.id, row.sha256, sealed, tx);
        });
      }
      return plain.length;
    },

    ping: () => store.ping(),
  };
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;
