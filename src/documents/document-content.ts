/**
 * What a document's bytes are (docs/api.md, "Documents"): the type comes from the bytes alone, never
 * from the file name or the type a part declares. A PDF is read with a PDF parser (compressed object
 * streams included, escaped names such as `/J#61vaScript` decoded) and refused when it is encrypted or
 * holds active content; a byte search would miss both.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream, type PDFObject } from '@cantoo/pdf-lib';

export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

/** Why a file's content is refused (415 / 4150, `additionalData.reason`). */
export const CONTENT_REFUSALS = ['UNSUPPORTED_CONTENT', 'ENCRYPTED_PDF', 'ACTIVE_CONTENT', 'UNREADABLE_PDF'] as const;
export type ContentRefusal = (typeof CONTENT_REFUSALS)[number];

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Bytes needed to tell a type. */
export const sniffBytes = png.length;

/** The type the first bytes show; undefined for any other content. */
export function sniffContentType(head: Buffer): DocumentContentType | undefined {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= png.length && head.subarray(0, png.length).equals(png)) return 'image/png';
  return undefined;
}

/** Names that run or carry something: scripts, launched programs, embedded files, rich media. */
const activeNames = new Set(['JavaScript', 'JS', 'Launch', 'EmbeddedFile', 'EmbeddedFiles', 'RichMedia']);

/** A name as the PDF means it: `#xx` escapes decoded, in either case. */
const nameOf = (name: PDFName) =>
  name
    .asString()
    .replace(/^\//, '')
    .replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** Whether `object` names active content (references are not followed: every object is looked at in turn). */
function holdsActiveContent(object: PDFObject, doc: PDFDocument, depth = 0): boolean {
  if (depth > 64) return true; // deeper than any real document nests: refused rather than half-read
  if (object instanceof PDFName) return activeNames.has(nameOf(object));
  if (object instanceof PDFArray) return object.asArray().some((item) => holdsActiveContent(item, doc, depth + 1));
  const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : undefined;
  if (!dict) return false;
  for (const [key, value] of dict.entries()) {
    const name = nameOf(key);
    if (activeNames.has(name)) return true;
    // An open action that is an action (a dictionary), not a destination (an array).
    if (name === 'OpenAction' && doc.context.lookup(value) instanceof PDFDict) return true;
    if (holdsActiveContent(value, doc, depth + 1)) return true;
  }
  return false;
}

/** Why the PDF is refused, or undefined when it may be kept. */
export async function inspectPdf(bytes: Uint8Array): Promise<ContentRefusal | undefined> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, throwOnInvalidObject: true, updateMetadata: false });
  } catch {
    return 'UNREADABLE_PDF';
  }
  if (doc.isEncrypted) return 'ENCRYPTED_PDF';
  // Without a document catalog there is no document to show: bytes that only start like a PDF.
  if (!(doc.context.lookup(doc.context.trailerInfo.Root) instanceof PDFDict)) return 'UNREADABLE_PDF';
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (holdsActiveContent(object, doc)) return 'ACTIVE_CONTENT';
  }
  return undefined;
}
