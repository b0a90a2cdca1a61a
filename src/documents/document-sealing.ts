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

/** Chunk `seq` of the document sealed with its key: IV, ciphertext, tag. */
export function sealChunk(key: Buffer, documentId: string, seq: number, last: boolean, plain: Buffer): Buffer {
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(documentId, seq, last));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
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
