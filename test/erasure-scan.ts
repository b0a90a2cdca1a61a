/**
 * Scans the bytes of a database's files for what an erasure must leave unreadable (docs/operations.md,
 * "Erasure"): plaintext needles, and the sealed strings of the data key (`v2.<keyId>.<iv>.<tag>.<body>`,
 * src/shared/field-encryption.ts) and of the leads' keys (`l1.<iv>.<tag>.<body>`, src/lead-keys/lead-keys.ts),
 * each found string kept with the file and byte offset of its first copy, to be tried with keys.
 *
 * Sources are the files under a folder, read one at a time, or the entries of a tar (a backup, gunzipped).
 * A sealed string is found by its prefix and read on as far as base64 goes: bytes right after it in a page
 * (the next column's header byte) may be base64 letters too, so `openSealed` also tries the body cut short.
 *
 * A document's chunk (src/documents/document-sealing.ts) is binary, with no prefix: it is found beside its
 * document's id, which its row stores first (`document_chunks`): raw (16 bytes) in a table's page or a WAL
 * record, followed within a few bytes by the chunk; as text in a dump, followed by the chunk in hex (`\\x…`).
 * The bytes after each copy of the id are kept, and `openChunk` tries each start among them.
 *
 * A WAL record that does not fit in its page goes on after the next page's header: in a WAL segment each page's
 * start is also searched with that header cut out, so a needle, sealed string or chunk split there is found too.
 */
import { createDecipheriv } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A file's bytes: `name` is its path, or `<label>:<entry>` for a tar's entry. */
export interface Source {
  name: string;
  bytes: Buffer;
}

/** Where a string was found first, and how many copies there were. */
export interface Found {
  text: string;
  where: string;
  copies: number;
}

/** What to look for: bytes (a UTF-8 text, or a key's raw bytes) and what they are. */
export interface Needle {
  label: string;
  bytes: Buffer;
}

/** A document whose chunk to look for beside its id: its sealed length is its plain bytes' and 28 (IV, tag). */
export interface ChunkOf {
  documentId: string;
  sealedLength: number;
}

export interface ScanResult {
  /** Every copy of a needle: `file@offset: label`. */
  needles: string[];
  /** Distinct `v2.` strings of the key id. */
  v2: Map<string, Found>;
  /** Distinct `l1.` strings. */
  l1: Map<string, Found>;
  /** By document id, the distinct bytes after a copy of its id (latin1 in `text`), where a chunk may start. */
  chunks: Map<string, Map<string, Found>>;
  files: number;
  bytes: number;
}

/** The files under `dir`, recursively (symbolic links not followed). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return []; // removed while listed
    return stat.isDirectory() ? filesUnder(path) : stat.isFile() ? [path] : [];
  });
}

/** Each file under `dir` (only those modified at `since` or later, when given), read when it is reached. */
export function* folderSources(dir: string, since?: number): Generator<Source> {
  for (const name of filesUnder(dir)) {
    let bytes: Buffer;
    try {
      if (since !== undefined && statSync(name).mtimeMs < since) continue;
      bytes = readFileSync(name);
    } catch {
      continue; // removed meanwhile (a WAL segment retired by a checkpoint)
    }
    yield { name, bytes };
  }
}

const octal = (field: Buffer) => Number.parseInt(field.toString('latin1').replace(/\0.*$/s, '').trim() || '0', 8);
const cString = (field: Buffer) => field.toString('utf8').replace(/\0.*$/s, '');

/** Whether a tar header's checksum holds: the sum of its bytes, its checksum field read as spaces. */
function checksumHolds(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i];
  return sum === octal(header.subarray(148, 156));
}

/** The regular files of a (ustar) tar's bytes, each with its contents; throws on a header that does not hold. */
export function* tarSources(label: string, tar: Buffer): Generator<Source> {
  let at = 0;
  while (at + 512 <= tar.length) {
    const header = tar.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break; // the end-of-archive blocks
    if (!checksumHolds(header)) throw new Error(`${label}: not a tar header at byte ${at}`);
    const name = cString(header.subarray(0, 100));
    const prefix = cString(header.subarray(345, 500));
    const size = octal(header.subarray(124, 136));
    const type = String.fromCharCode(header[156] || 48);
    const start = at + 512;
    if (type === '0')
      yield { name: `${label}:${prefix ? `${prefix}/` : ''}${name}`, bytes: tar.subarray(start, start + size) };
    at = start + Math.ceil(size / 512) * 512;
  }
}

/** Whether a byte is one of base64's (with its padding). */
const isBase64 = (byte: number) =>
  (byte >= 65 && byte <= 90) ||
  (byte >= 97 && byte <= 122) ||
  (byte >= 48 && byte <= 57) ||
  byte === 43 ||
  byte === 47 ||
  byte === 61;

/** Every offset of `prefix` in `bytes` followed by `parts` base64 fields joined by dots, with the string there. */
function sealedAt(bytes: Buffer, prefix: string, parts: number): { offset: number; sealed: string }[] {
  const out: { offset: number; sealed: string }[] = [];
  for (let at = bytes.indexOf(prefix); at >= 0; at = bytes.indexOf(prefix, at + 1)) {
    let end = at + prefix.length;
    let part = 0;
    for (; part < parts; part++) {
      if (part > 0 && bytes[end++] !== 46) break; // the dot between two fields
      const start = end;
      while (end < bytes.length && isBase64(bytes[end])) end++;
      if (end === start) break;
    }
    if (part === parts) out.push({ offset: at, sealed: bytes.toString('latin1', at, end) });
  }
  return out;
}

function remember(into: Map<string, Found>, text: string, where: string): void {
  const found = into.get(text);
  if (found) found.copies++;
  else into.set(text, { text, where, copies: 1 });
}

/** The bytes around a copy of a needle, printable ones as they are: what the copy was part of. */
function around(bytes: Buffer, at: number, length: number): string {
  const shown = bytes.toString('latin1', Math.max(0, at - 24), Math.min(bytes.length, at + length + 24));
  return JSON.stringify(shown.replace(/[^\x20-\x7e]/g, '.'));
}

/** How far after its document's id a chunk may start: the row's other columns, alignment, a length header. */
const chunkSlack = 32;

/** The bytes after each copy of the document's id: raw after the raw id, decoded from hex after its text. */
function chunkWindows(bytes: Buffer, { documentId, sealedLength }: ChunkOf): { offset: number; window: Buffer }[] {
  const out: { offset: number; window: Buffer }[] = [];
  const raw = Buffer.from(documentId.replace(/-/g, ''), 'hex');
  for (let at = bytes.indexOf(raw); at >= 0; at = bytes.indexOf(raw, at + 1)) {
    const start = at + raw.length;
    out.push({ offset: at, window: bytes.subarray(start, start + chunkSlack + sealedLength) });
  }
  const text = Buffer.from(documentId.toLowerCase(), 'latin1');
  for (let at = bytes.indexOf(text); at >= 0; at = bytes.indexOf(text, at + 1)) {
    const start = at + text.length;
    const hexAt = bytes.subarray(start, start + chunkSlack).indexOf('\\x');
    if (hexAt < 0) continue;
    const from = start + hexAt + 2;
    const hex = /^[0-9a-f]*/.exec(bytes.toString('latin1', from, from + 2 * sealedLength))![0];
    out.push({ offset: at, window: Buffer.from(hex.slice(0, hex.length - (hex.length % 2)), 'hex') });
  }
  return out.filter(({ window }) => window.length >= sealedLength);
}

/**
 * A stretch of a source to search: the whole source; and in a WAL segment, each page's start joined to the end
 * of the page before, without the page's header (a record that does not fit in a page goes on after it), where
 * only a find across the join counts (the others are found whole).
 */
interface Stretch {
  bytes: Buffer;
  /** The source's offset of the stretch's first byte. */
  from: number;
  join?: number;
}

/**
 * A WAL page, the header of each but a segment's first (MAXALIGN'd), and how much of either side is joined: more
 * than a key's sealed string, or a small document's chunk with its id.
 */
const walPage = 8192;
const walPageHeader = 24;
const walJoin = 512;

function* stretchesOf({ name, bytes }: Source): Generator<Stretch> {
  yield { bytes, from: 0 };
  if (!/(^|[/:])pg_wal\//.test(name)) return;
  for (let page = walPage; page + walPageHeader < bytes.length; page += walPage) {
    const next = page + walPageHeader;
    const joined = Buffer.concat([bytes.subarray(page - walJoin, page), bytes.subarray(next, next + walJoin)]);
    yield { bytes: joined, from: page - walJoin, join: walJoin };
  }
}

/** Whether a find at `at`, `length` bytes long, counts: anywhere in a whole source, across the join of a joined one. */
const counts = ({ join }: Stretch, at: number, length: number) =>
  join === undefined || (at < join && at + length > join);

/** What a scan looks for. */
interface Targets {
  needles: readonly Needle[];
  dataKeyId: string;
  chunksOf: readonly ChunkOf[];
}

/** One stretch's finds into `result`. */
function scanStretch(result: ScanResult, name: string, stretch: Stretch, what: Targets): void {
  const { bytes } = stretch;
  const where = (at: number) => `${name}@${stretch.from + at}`;
  for (const needle of what.needles) {
    for (let at = bytes.indexOf(needle.bytes); at >= 0; at = bytes.indexOf(needle.bytes, at + 1)) {
      if (!counts(stretch, at, needle.bytes.length)) continue;
      result.needles.push(`${where(at)}: ${needle.label} in ${around(bytes, at, needle.bytes.length)}`);
    }
  }
  for (const [prefix, into] of [[`v2.${what.dataKeyId}.`, result.v2] as const, ['l1.', result.l1] as const]) {
    for (const { offset, sealed } of sealedAt(bytes, prefix, 3)) {
      if (counts(stretch, offset, sealed.length)) remember(into, sealed, where(offset));
    }
  }
  for (const of of what.chunksOf) {
    for (const { offset, window } of chunkWindows(bytes, of)) {
      if (!counts(stretch, offset, 16 + window.length)) continue; // the raw id's 16 bytes, then the window
      remember(result.chunks.get(of.documentId)!, window.toString('latin1'), where(offset));
    }
  }
}

/** One pass over every source: the needles' copies, the distinct sealed strings and the chunks' places. */
export function scan(
  sources: Iterable<Source>,
  needles: readonly Needle[],
  dataKeyId: string,
  chunksOf: readonly ChunkOf[] = [],
): ScanResult {
  if (needles.some((needle) => needle.bytes.length === 0)) throw new Error('an empty needle');
  const chunks = new Map(chunksOf.map((of) => [of.documentId, new Map<string, Found>()]));
  const result: ScanResult = { needles: [], v2: new Map(), l1: new Map(), chunks, files: 0, bytes: 0 };
  const targets = { needles, dataKeyId, chunksOf };
  for (const source of sources) {
    result.files++;
    result.bytes += source.bytes.length;
    for (const stretch of stretchesOf(source)) scanStretch(result, source.name, stretch, targets);
  }
  return result;
}

function decrypt(key: Buffer, iv: string, tag: string, body: string, context: string): string | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * Opens a sealed string found in a file (`v2.<keyId>.` or `l1.` form) with `key` under `context`: its plaintext,
 * or undefined. The body is tried as found, cut at its padding, and shortened by up to three base64 quanta.
 */
export function openSealed(sealed: string, key: Buffer, context: string): string | undefined {
  const fields = sealed.split('.');
  const [iv, tag, body] = fields.slice(-3);
  if (fields.length < 4 || iv.length !== 16 || tag.length !== 24) return undefined;
  const unpadded = /^[A-Za-z0-9+/]*={0,2}/.exec(body)![0];
  const whole = unpadded.length - (unpadded.length % 4);
  const cuts = [whole, whole - 4, whole - 8, whole - 12].filter((n) => n > 0).map((n) => unpadded.slice(0, n));
  for (const candidate of new Set([body, unpadded, ...cuts])) {
    const text = decrypt(key, iv, tag, candidate, context);
    if (text !== undefined) return text;
  }
  return undefined;
}

/**
 * Opens the single chunk of a document (chunk 0, the last; src/documents/document-sealing.ts: IV, ciphertext,
 * tag, the document, place and end as associated data) in bytes found after its id (`Found.text`), trying each
 * start: its plain bytes, or undefined.
 */
export function openChunk(found: string, key: Buffer, { documentId, sealedLength }: ChunkOf): Buffer | undefined {
  const window = Buffer.from(found, 'latin1');
  for (let start = 0; start + sealedLength <= window.length; start++) {
    const sealed = window.subarray(start, start + sealedLength);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAAD(Buffer.from(`document:${documentId}:chunk:0:last`));
      decipher.setAuthTag(sealed.subarray(sealedLength - 16));
      return Buffer.concat([decipher.update(sealed.subarray(12, sealedLength - 16)), decipher.final()]);
    } catch {
      // not the chunk at this start, or not with this key
    }
  }
  return undefined;
}
