/**
 * A catalog as the service holds it in memory, and stores it beside its snapshot (catalog_meta.packed,
 * migration 021): the snapshot's lines (catalog-stored-form.ts) in key order, deflated in blocks of
 * `blockLines` lines, with each line's key, and each vehicle's model year, in typed arrays. A start reads
 * the packed bytes and makes views on them: it neither decodes the catalog's text nor parses a line. A line
 * is inflated when an answer needs it (its block, a few KB), so both catalogs take about 2.5 MB of memory
 * where their text takes 13 MB (docs/performance.md).
 *
 * The bytes, every integer an unsigned or signed 32-bit little-endian one:
 *   "AFC1", line count, lines a block, 1 when each line's model year follows (vehicles) or 0,
 *   the keys (one a line, ascending), the model years (when present),
 *   the end of each block counted from the start of the first one,
 *   the blocks: each one's lines joined with "\n", UTF-8, raw deflate.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { CatalogKind } from './catalog-file.ts';

const magic = 'AFC1';
const headerBytes = 16;

/** Lines a block: a lookup inflates 64 lines (5-9 KB) in 20-30 µs; larger blocks pack little tighter. */
const defaultBlockLines = 64;

/** Blocks kept inflated: a year's grouping reads its lines in order, a lead's checks read one line or two. */
const inflatedBlocksKept = 8;

export interface PackedCatalog {
  readonly lineCount: number;
  /** Each line's key, ascending: a vehicle's version id, a ZIP code as a number (five digits). */
  readonly keys: Int32Array;
  /** Each vehicle line's model year; undefined for the ZIP codes. */
  readonly years: Int32Array | undefined;
  /** The text of line `i` (0 ≤ i < lineCount). */
  line(i: number): string;
}

/**
 * The `n`th number (0 or 1) of a line, read without parsing the line: a vehicle line's version id and
 * model year (`[versionId, year, ...`), a ZIP code line's ZIP code (`["06700", ...`, five digits, so
 * their order as numbers is their order as text). The snapshot's writers put integers there, with or
 * without spaces after the commas.
 */
function leadingNumber(line: string, n: 0 | 1): number {
  let value = 0;
  let digits = 0;
  let seen = 0;
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      value = value * 10 + code - 48;
      digits++;
    } else if (digits > 0) {
      if (seen === n) return value;
      seen++;
      value = digits = 0;
    }
  }
  return digits > 0 && seen === n ? value : NaN;
}

/**
 * Packs a snapshot (one JSON array a line). Lines are put in key order when the snapshot is not in it
 * (the writers write it so; one written otherwise is sorted here).
 */
export function packSnapshot(snapshot: string, kind: CatalogKind, blockLines = defaultBlockLines): Buffer {
  const lines = snapshot === '' ? [] : snapshot.split('\n').filter((line) => line !== '');
  const keyed = lines.map((line) => ({ line, key: leadingNumber(line, 0) }));
  if (keyed.some((entry, i) => i > 0 && keyed[i - 1].key > entry.key)) keyed.sort((a, b) => a.key - b.key);
  const withYears = kind === 'vehicles';
  const count = keyed.length;
  const blockCount = Math.ceil(count / blockLines);
  const blocks: Buffer[] = [];
  for (let b = 0; b < blockCount; b++) {
    const text = keyed
      .slice(b * blockLines, (b + 1) * blockLines)
      .map((entry) => entry.line)
      .join('\n');
    // The highest level: packing runs where a file is imported (a worker thread), unpacking does not slow with it.
    blocks.push(deflateRawSync(Buffer.from(text, 'utf8'), { level: 9 }));
  }
  const numbers = count * (withYears ? 2 : 1) + blockCount + 1;
  const head = Buffer.alloc(headerBytes + numbers * 4);
  head.write(magic, 0, 'latin1');
  head.writeUInt32LE(count, 4);
  head.writeUInt32LE(blockLines, 8);
  head.writeUInt32LE(withYears ? 1 : 0, 12);
  let at = headerBytes;
  for (const entry of keyed) at = head.writeInt32LE(entry.key, at);
  if (withYears) for (const entry of keyed) at = head.writeInt32LE(leadingNumber(entry.line, 1), at);
  let end = 0;
  at = head.writeUInt32LE(0, at);
  for (const block of blocks) at = head.writeUInt32LE((end += block.length), at);
  return Buffer.concat([head, ...blocks]);
}

export class PackedCatalogError extends Error {
  constructor(reason: string) {
    super(`the packed catalog is unreadable: ${reason}`);
    this.name = 'PackedCatalogError';
  }
}

/** Reads `count` 32-bit integers from `at` into an array of their own (the bytes may be unaligned). */
function int32s(bytes: Buffer, at: number, count: number): Int32Array {
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) out[i] = bytes.readInt32LE(at + i * 4);
  return out;
}

/** The packed catalog in `bytes` (what `packSnapshot` made): views on it, nothing inflated yet. */
export function unpackCatalog(bytes: Uint8Array): PackedCatalog {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < headerBytes || buffer.toString('latin1', 0, 4) !== magic)
    throw new PackedCatalogError('no header');
  const count = buffer.readUInt32LE(4);
  const blockLines = buffer.readUInt32LE(8);
  const withYears = buffer.readUInt32LE(12) === 1;
  const blockCount = Math.ceil(count / Math.max(1, blockLines));
  let at = headerBytes;
  const tableEnd = at + (count * (withYears ? 2 : 1) + blockCount + 1) * 4;
  if (blockLines === 0 || buffer.length < tableEnd) throw new PackedCatalogError('truncated');
  const keys = int32s(buffer, at, count);
  at += count * 4;
  const years = withYears ? int32s(buffer, at, count) : undefined;
  if (withYears) at += count * 4;
  const ends = int32s(buffer, at, blockCount + 1);
  if (tableEnd + ends[blockCount] !== buffer.length) throw new PackedCatalogError('truncated');
  const inflated = new Map<number, string[]>();
  const blockAt = (b: number): string[] => {
    const kept = inflated.get(b);
    if (kept !== undefined) return kept;
    const text = inflateRawSync(buffer.subarray(tableEnd + ends[b], tableEnd + ends[b + 1])).toString('utf8');
    const lines = text.split('\n');
    if (inflated.size >= inflatedBlocksKept) inflated.delete(inflated.keys().next().value!);
    inflated.set(b, lines);
    return lines;
  };
  return {
    lineCount: count,
    keys,
    years,
    line(i: number): string {
      const b = Math.floor(i / blockLines);
      return blockAt(b)[i - b * blockLines];
    },
  };
}

/** The index of the line whose key is `key` (keys ascending), or -1. */
export function findLine(keys: Int32Array, key: number): number {
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = keys[middle];
    if (at === key) return middle;
    if (at < key) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
