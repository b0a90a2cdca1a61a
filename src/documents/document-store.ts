/**
 * Where a document's sealed bytes are kept (docs/operations.md, "Documents"): one interface, the
 * database (the default, either engine) or an S3-compatible bucket. A store holds only ciphertext, in
 * numbered chunks of an object named by an opaque id; it never sees a file name, digest or type.
 */
import { errors } from '../http/index.ts';
export interface DocumentStore {
  readonly kind: 'database' | 's3';
  /** Writes chunk `seq` (from 0) of object `objectId`, replacing one written before. */
  putChunk(objectId: string, seq: number, body: Buffer): Promise<void>;
  /** Chunk `seq` of the object; throws when it is not there. */
  getChunk(objectId: string, seq: number): Promise<Buffer>;
  /** Removes chunks 0 to `chunks - 1` of the object; chunks already gone are no error. */
  deleteObject(objectId: string, chunks: number): Promise<void>;
  /** Resolves when the store answers; throws when it cannot be reached (readiness). */
  ping(): Promise<void>;
}

/** The store could not be reached or refused a request: the caller answers 503 / 5030. */
export class DocumentStoreUnavailable extends Error {
  constructor(cause: unknown) {
    super('the document store cannot be reached', { cause });
    this.name = 'DocumentStoreUnavailable';
  }
}

/** Runs `work`; the store out of reach is answered 503 / 5030 (docs/api.md, "Errors"). */
export async function answeredByStore<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DocumentStoreUnavailable) throw errors.unavailable();
    throw error;
  }
}
