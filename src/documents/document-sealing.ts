/**
 * How a document's bytes are sealed (docs/operations.md, "Documents"): each document has a key of its
 * own, drawn at random, and its bytes are sealed with it in chunks (AES-256-GCM), each chunk bound to
 * the document, its place and whether it is the last, so chunks cannot be swapped, reordered or cut
 * off unnoticed. The document's key is sealed with the service's data key like every personal value:
 * key rotation counts and re-seals it (the chunks stay as they are), and erasure destroys it.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Plain bytes per chunk: 256 KiB, so an upload holds little more than one chunk in memory. */
export const chunkBytes = 256 * 1024;
const ivBytes = 12;
const tagBytes = 16;

const aad = (documentId: string, seq: number, last: boolean) =>
  Buffer.from(`document:${documentId}:chunk:${seq}:${last ? 'last' : 'more'}`);

export const documentKeyContext = (documentId: string) => `document:${documentId}:key`;

export const newDocumentKey = (): Buffer => randomBytes(32);

/** Bytes a sealed chunk adds to its plain bytes (IV and tag). */
export const sealedOverhead = ivBytes + tagBytes;
// Encrypted a piece at a time: a piece's output stays small, where one of a whole chunk would be a large
// buffer allocated (and, under `npm start`'s allocator setting, mapped and unmapped) for every chunk.
const pieceBytes = 64 * 1024;

/**
 * Chunk `seq` of the document sealed with its key (IV, ciphertext, tag), written into `out` (at least
 * `plain.length + sealedOverhead` bytes, reused by the caller from chunk to chunk); the sealed bytes of `out`.
 */
export function sealChunk(
  key: Buffer,
  documentId: string,
  seq: number,
  last: boolean,
  plain: Buffer,
  out: Buffer = Buffer.allocUnsafe(plain.length + sealedOverhead),
): Buffer {
  const iv = randomBytes(ivBytes);
  iv.copy(out, 0);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(documentId, seq, last));
  let at = ivBytes;
  for (let from = 0; from < plain.length; from += pieceBytes) {
    at += cipher.update(plain.subarray(from, from + pieceBytes)).copy(out, at);
  }
  at += cipher.final().copy(out, at);
  at += cipher.getAuthTag().copy(out, at);
  return out.subarray(0, at);
}

/** Opens chunk `seq`; throws when it is not that chunk of that document sealed with that key. */
export function openChunk(key: Buffer, documentId: string, seq: number, last: boolean, sealed: Buffer): Buffer {
  if (sealed.length < ivBytes + tagBytes) throw new Error('a sealed chunk is too short');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, ivBytes));
  decipher.setAAD(aad(documentId, seq, last));
  decipher.setAuthTag(sealed.subarray(sealed.length - tagBytes));
  return Buffer.concat([decipher.update(sealed.subarray(ivBytes, sealed.length - tagBytes)), decipher.final()]);
}

/** How many chunks `size` plain bytes make. */
export const chunksOf = (size: number) => Math.max(1, Math.ceil(size / chunkBytes));
