/**
 * Reads an upload's multipart parts as they arrive (docs/api.md, "Documents"): the text fields, and the
 * one file, whose bytes are typed from their first bytes, hashed, sealed and written to the store chunk
 * by chunk. Nothing holds more than about one chunk of a file; the size limit is the multipart
 * parser's, enforced while the file arrives.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { DocumentStore } from './document-store.ts';
import { chunkBytes, openChunk, sealChunk, sealedOverhead } from './document-sealing.ts';
import { sniffBytes, sniffContentType, type DocumentContentType } from './document-content.ts';
import type { FieldError } from '../http/index.ts';

/** A file written to the store (sealed with `key`), or what was learnt of it when it was not. */
export interface StoredFile {
  objectId: string;
  fileName: string;
  size: number;
  sha256: string;
  /** Chunks written; 0 when the content was refused before a byte was kept. */
  chunks: number;
  contentType: DocumentContentType | undefined;
}

export interface UploadForm {
  conditionId?: string;
  type?: string;
  file?: StoredFile;
  /** Parts that are not one of the upload's (a second file, a file under another name). */
  unexpected: FieldError[];
}

/** A multipart part as the parser hands it over. */
export type UploadPart =
  | { type: 'field'; fieldname: string; value: unknown }
  | { type: 'file'; fieldname: string; filename: string; file: Readable };

/**
 * Writes `stream` to the store as object `objectId`, sealed with `key`; an unknown type keeps nothing. The
 * bytes are gathered in one buffer of a chunk and sealed into another, both reused for every chunk: the
 * store has taken a chunk (the write is awaited) before the next is gathered.
 */
export async function storeFile(
  stream: Readable,
  target: { store: DocumentStore; objectId: string; key: Buffer; fileName: string },
): Promise<StoredFile> {
  const hash = createHash('sha256');
  const gathered = Buffer.allocUnsafe(chunkBytes);
  const sealed = Buffer.allocUnsafe(chunkBytes + sealedOverhead);
  let filled = 0;
  let size = 0;
  let chunks = 0;
  let contentType: DocumentContentType | undefined;
  let typed = false;
  const flush = async (last: boolean) => {
    const body = sealChunk(target.key, target.objectId, chunks, last, gathered.subarray(0, filled), sealed);
    await target.store.putChunk(target.objectId, chunks, body);
    chunks += 1;
    filled = 0;
  };
  for await (const piece of stream as AsyncIterable<Buffer>) {
    size += piece.length;
    hash.update(piece);
    if (typed && !contentType) continue; // refused content: read to its end, keep nothing
    for (let from = 0; from < piece.length;) {
      // A chunk is written once more bytes follow it, so the last chunk is known to be the last.
      if (filled === chunkBytes) await flush(false);
      const taken = piece.copy(gathered, filled, from, Math.min(piece.length, from + chunkBytes - filled));
      filled += taken;
      from += taken;
      // The type is told by the first bytes, before any chunk is written.
      if (!typed && filled >= sniffBytes) {
        typed = true;
        contentType = sniffContentType(gathered.subarray(0, filled));
        if (!contentType) break;
      }
    }
  }
  if (!typed && filled > 0) contentType = sniffContentType(gathered.subarray(0, filled));
  if (contentType && filled > 0) await flush(true);
  return {
    objectId: target.objectId,
    fileName: target.fileName,
    size,
    sha256: hash.digest('hex'),
    chunks,
    contentType,
  };
}

/** The plain bytes of a stored file, chunk by chunk. */
export async function* readFile(
  store: DocumentStore,
  file: { objectId: string; key: Buffer; chunks: number },
): AsyncGenerator<Buffer> {
  for (let seq = 0; seq < file.chunks; seq++) {
    yield openChunk(file.key, file.objectId, seq, seq === file.chunks - 1, await store.getChunk(file.objectId, seq));
  }
}

/** Reads every part in its order; the file goes to `write` as it arrives, other files are read and dropped. */
export async function readUploadForm(
  parts: AsyncIterable<UploadPart>,
  write: (stream: Readable, fileName: string) => Promise<StoredFile>,
): Promise<UploadForm> {
  const form: UploadForm = { unexpected: [] };
  for await (const part of parts) {
    if (part.type === 'field') {
      if (part.fieldname === 'conditionId' || part.fieldname === 'type') {
        form[part.fieldname] = typeof part.value === 'string' ? part.value : undefined;
      }
      continue;
    }
    if (part.fieldname !== 'file' || form.file) {
      part.file.resume();
      await new Promise((resolve) => part.file.once('end', resolve));
      const detail = part.fieldname === 'file' ? 'must be sent once' : 'is not a part of an upload';
      form.unexpected.push({ field: part.fieldname, errorDetail: detail });
      continue;
    }
    form.file = await write(part.file, part.filename);
  }
  return form;
}
