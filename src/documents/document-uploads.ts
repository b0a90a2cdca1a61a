/**
 * The partner's upload (docs/api.md, "Documents for conditions"): the lead and its decision are checked
 * before a byte is kept, the file is sealed and stored as it arrives, then the fields, the content and
 * the condition are checked under the lead's lock and the document listed with its event, or its bytes
 * removed. A retry with the same Idempotency-Key, fields and bytes answers the first document.
 */
import { createHmac, type KeyObject } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Queryable } from '../db/index.ts';
import { errors, type FieldError } from '../http/index.ts';
import { newId } from '../shared/index.ts';
import type { DocumentsDeps } from './document-deps.ts';
import { documentKeyContext, newDocumentKey } from './document-sealing.ts';
import { inspectPdf } from './document-content.ts';
import { answeredByStore } from './document-store.ts';
import { readFile, readUploadForm, storeFile, type StoredFile, type UploadPart } from './document-upload.ts';
import { digestContext, documentViewOf, eventDocument, fileNameContext, type DocumentView } from './document-views.ts';
import { sandboxReviewer, type DocumentReview } from './document-reviews.ts';
import { DOCUMENT_TYPES, type DocumentRow, type DocumentType } from './documents.repository.ts';

const maxPerCondition = 10;
const idempotencyWindowMs = 24 * 60 * 60 * 1000;
/** The most chunks a document may have (10 MiB in 256 KiB chunks): what an object of unknown length is removed as. */
export const maxChunks = 41;

type Upload = { document: DocumentView; replayed: boolean };
type Form = { conditionId: string; type: DocumentType };

/** One PDF is read at a time: its whole bytes and the parser's objects are the largest thing an upload holds. */
function oneAtATime() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => {});
    return run;
  };
}

function fieldErrorsOf(form: { conditionId?: string; type?: string; file?: StoredFile }): FieldError[] {
  const found: FieldError[] = [];
  if (!form.conditionId) found.push({ field: 'conditionId', errorDetail: 'is required' });
  if (form.type === undefined) found.push({ field: 'type', errorDetail: 'is required' });
  else if (!(DOCUMENT_TYPES as readonly string[]).includes(form.type)) {
    found.push({ field: 'type', errorDetail: `must be one of: ${DOCUMENT_TYPES.join(', ')}` });
  }
  const length = [...(form.file?.fileName ?? '')].length;
  if (!form.file) found.push({ field: 'file', errorDetail: 'is required' });
  else if (form.file.size === 0) found.push({ field: 'file', errorDetail: 'must not be empty' });
  else if (length < 1 || length > 200) {
    found.push({ field: 'file', errorDetail: 'must have a file name of 1 to 200 characters' });
  }
  return found;
}

const fingerprint = (key: KeyObject, leadId: string, form: Form, file: StoredFile) =>
  createHmac('sha256', key)
    .update(JSON.stringify([leadId, form.conditionId, form.type, file.fileName, file.sha256]))
    .digest('hex');

/** 404 for an unknown or another company's lead, 409 when it asks for no document; the lead stays locked. */
export async function requireConditioned(deps: DocumentsDeps, companyId: string, leadId: string, tx: Queryable) {
  const lead = await deps.leads.lockForOutcome(leadId, tx);
  if (!lead || lead.companyId !== companyId) throw errors.leadNotFound();
  const outcome = await deps.outcomes.currentConditions(leadId, tx);
  if (outcome?.status !== 'CONDITIONED') throw errors.documentsNotRequested('NOT_CONDITIONED');
  return { lead, outcome };
}

/** Removes an object that will not be listed; left to the sweep when the store does not answer now. */
async function discard(deps: DocumentsDeps, objectId: string, chunks: number | null) {
  try {
    await deps.store.deleteObject(objectId, chunks ?? maxChunks);
    await deps.repository.forgetOrphan(objectId);
  } catch {
    // The orphan record stays: the sweep removes the object once the store answers.
  }
}

const inspectOne = oneAtATime();

/** Why the stored file's content is refused; undefined when it may be kept. */
async function refusalOf(deps: DocumentsDeps, file: StoredFile, key: Buffer): Promise<string | undefined> {
  if (!file.contentType) return 'UNSUPPORTED_CONTENT';
  if (file.contentType !== 'application/pdf') return undefined;
  return inspectOne(async () => {
    const parts: Buffer[] = [];
    for await (const chunk of readFile(deps.store, { objectId: file.objectId, key, chunks: file.chunks })) {
      parts.push(chunk);
    }
    return inspectPdf(Buffer.concat(parts));
  });
}

/** The document's row, its key and file name sealed with the lead's key (read before: `forWriting`). */
function rowOf(
  deps: DocumentsDeps,
  ids: { companyId: string; leadId: string },
  form: Form,
  file: StoredFile,
  key: Buffer,
) {
  const row: DocumentRow = {
    id: file.objectId,
    ...ids,
    conditionId: form.conditionId,
    type: form.type,
    fileNameEnc: deps.sealing.seal(ids.leadId, file.fileName, fileNameContext(file.objectId)),
    contentType: file.contentType!,
    size: file.size,
    sha256Enc: deps.sealing.seal(ids.leadId, file.sha256, digestContext(file.objectId)),
    sha256: null,
    chunks: file.chunks,
    keyEnc: deps.sealing.seal(ids.leadId, key.toString('base64'), documentKeyContext(file.objectId)),
    status: 'RECEIVED',
    rejectionReason: null,
    uploadedAt: deps.clock.now(),
    reviewedAt: null,
    reviewedBy: null,
    erasedAt: null,
    idempotencyKey: null,
    requestHash: null,
  };
  return row;
}

export function createDocumentUploads(deps: DocumentsDeps, review: DocumentReview) {
  const { repository, store, clock } = deps;
  const view = documentViewOf(deps.sealing);

  /** The earlier upload of this key, as first answered; 409 when it was another request; undefined when none. */
  async function replayOf(companyId: string, leadId: string, key: string, hashes: string[], tx: Queryable) {
    const earlier = await repository.byIdempotencyKey(companyId, key, tx);
    if (!earlier) return undefined;
    if (earlier.uploadedAt.getTime() <= clock.now().getTime() - idempotencyWindowMs) {
      await repository.releaseIdempotencyKey(earlier.id, tx);
      return undefined;
    }
    if (earlier.leadId !== leadId || !hashes.includes(earlier.requestHash ?? '')) throw errors.idempotencyConflict();
    await deps.sealing.forReading([leadId], tx);
    return { ...view(earlier), status: 'RECEIVED' as const, rejectionReason: null, reviewedAt: null };
  }

  /** The checks against the lead under its lock, then the document and its event; or the replay of a retry. */
  async function record(companyId: string, leadId: string, form: Form, file: StoredFile, key: Buffer, idem?: string) {
    const hashes = deps.fingerprintKeys.map((k) => fingerprint(k, leadId, form, file));
    return deps.db.transaction(async (tx): Promise<Upload> => {
      const { lead, outcome } = await requireConditioned(deps, companyId, leadId, tx);
      if (!outcome.conditionIds.includes(form.conditionId)) {
        throw errors.invalidInput([{ field: 'conditionId', errorDetail: 'is not a condition of the lead' }]);
      }
      const first = idem ? await replayOf(companyId, leadId, idem, hashes, tx) : undefined;
      if (first) return { document: first, replayed: true };
      const condition = (await repository.byCondition(leadId, tx)).find((c) => c.conditionId === form.conditionId);
      if (condition?.accepted) throw errors.documentsNotRequested('CONDITION_ACCEPTED');
      if ((condition?.count ?? 0) >= maxPerCondition) throw errors.documentsNotRequested('LIMIT_REACHED');
      await deps.sealing.forWriting(leadId, tx);
      const row = { ...rowOf(deps, { companyId, leadId }, form, file, key), idempotencyKey: idem ?? null };
      if (idem) row.requestHash = hashes[0]!;
      const document = view(row);
      const event = {
        id: newId(),
        type: 'lead.document_received' as const,
        document: eventDocument(document),
        condition: { id: form.conditionId, status: 'RECEIVED' },
      };
      await repository.insert(row, lead, event, tx);
      return { document, replayed: false };
    });
  }

  async function sandboxReview(leadId: string, document: DocumentView) {
    const name = document.fileName ?? '';
    if (name.startsWith('aceptar-')) await review(sandboxReviewer, leadId, document.id, { status: 'ACCEPTED' });
    if (name.startsWith('rechazar-')) {
      await review(sandboxReviewer, leadId, document.id, { status: 'REJECTED', rejectionReason: 'ILLEGIBLE' });
    }
  }

  return async function upload(
    companyId: string,
    pathLeadId: string,
    parts: AsyncIterable<UploadPart>,
    idempotencyKey?: string,
  ): Promise<Upload> {
    const leadId = pathLeadId.toLowerCase();
    await deps.db.transaction((tx) => requireConditioned(deps, companyId, leadId, tx));
    const key = newDocumentKey();
    const objectId = newId();
    let written: StoredFile | undefined;
    let started = false;
    try {
      const form = await answeredByStore(() =>
        readUploadForm(parts, async (stream: Readable, fileName: string) => {
          await repository.orphanFrom(objectId, clock.now());
          started = true;
          written = await storeFile(stream, { store, objectId, key, fileName });
          return written;
        }),
      );
      const fieldErrors = [...form.unexpected, ...fieldErrorsOf(form)];
      if (fieldErrors.length > 0) throw errors.invalidInput(fieldErrors);
      const refusal = await answeredByStore(() => refusalOf(deps, form.file!, key));
      if (refusal) throw errors.unsupportedContent(refusal);
      const fields = { conditionId: form.conditionId!, type: form.type as DocumentType };
      const result = await record(companyId, leadId, fields, form.file!, key, idempotencyKey);
      if (result.replayed) await discard(deps, objectId, written?.chunks ?? null);
      else if (deps.sandbox) await sandboxReview(leadId, result.document);
      return result;
    } catch (error) {
      if (started) await discard(deps, objectId, written?.chunks ?? null);
      throw error;
    }
  };
}
