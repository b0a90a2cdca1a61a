/**
 * Parses a catalog file in a worker thread of its own (catalog-parse-worker.ts), which also makes
 * the forms the catalog is stored in, so the event loop keeps serving while a file is decompressed
 * and checked: the shipped files at a first start, parsed while the service starts, and an
 * operator's import on a serving instance. A refused file rejects with the same CatalogFileError
 * as parsing in this thread would.
 */
import type { Worker } from 'node:worker_threads';
import { CatalogFileError, type CatalogKind } from './catalog-file.ts';
import type { ParseAnswer, ParseRequest } from './catalog-parse-worker.ts';
import type { StoredCatalog } from './catalog-stored-form.ts';
import { startWorker } from '../shared/index.ts';

/** The catalog ready to store, or the first problem found in the file with its line. */
export async function parseCatalogInWorker(kind: CatalogKind, bytes: Uint8Array): Promise<StoredCatalog> {
  // A copy the worker owns: the caller's bytes may be a view on a larger buffer (a request body).
  const own = new Uint8Array(bytes);
  const request: ParseRequest = { kind, bytes: own };
  const worker = startWorker('catalogs/catalog-parse-worker', { workerData: request, transferList: [own.buffer] });
  try {
    const answer = await answerOf(worker);
    if ('refused' in answer) throw new CatalogFileError(answer.refused.line, answer.refused.reason);
    // A Buffer crosses threads as a plain Uint8Array: made a Buffer again, on the same memory.
    const { packed } = answer.stored;
    return { ...answer.stored, packed: Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength) };
  } finally {
    // Its heap (the file's rows) is released now rather than when the thread winds down.
    void worker.terminate();
  }
}

/** The worker's one message; its error when it throws, or an error when it ends without answering. */
function answerOf(worker: Worker): Promise<ParseAnswer> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the catalog parser ended without an answer (exit code ${code})`)));
  });
}
