/**
 * Reads a catalog file (the shipped ones in catalog-data/, or one an operator imports): CSV, UTF-8,
 * optionally gzip-compressed. Every row is checked before anything is stored, because the API
 * serves these rows as they are and lead checks rely on them: a file is taken whole or refused
 * with the first problem and its line number.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { CsvError, parse } from 'csv-parse/sync';

export const catalogKinds = ['vehicles', 'zipCodes'] as const;
export type CatalogKind = (typeof catalogKinds)[number];

export const vehicleColumns = [
  'year',
  'make_id',
  'make',
  'model_id',
  'model',
  'version_id',
  'version',
  'transmission',
] as const;
export const zipCodeColumns = [
  'zip_code',
  'settlement',
  'settlement_type',
  'municipality',
  'city',
  'state_code',
  'state_name',
  'municipality_code',
  'settlement_id',
  'zone',
] as const;

export const transmissions = ['automatic', 'manual'] as const;
export type Transmission = (typeof transmissions)[number];

export interface VehicleRow {
  year: number;
  makeId: number;
  make: string;
  modelId: number;
  model: string;
  versionId: number;
  version: string;
  transmission: Transmission;
}

export interface ZipSettlementRow {
  zipCode: string;
  settlement: string;
  settlementType: string;
  municipality: string;
  /** Empty where SEPOMEX has no city (mostly rural settlements). */
  city: string;
  stateCode: string;
  stateName: string;
  municipalityCode: string;
  settlementId: string;
  zone: string;
}

export interface CatalogFile<T> {
  rows: T[];
  /** sha256 (hex) of the bytes as given, compressed or not: identifies the imported file. */
  sha256: string;
}

/** A refused file. `line` is 1-based (the header is line 1); 0 means the file as a whole. */
export class CatalogFileError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(line > 0 ? `line ${line}: ${reason}` : reason);
    this.name = 'CatalogFileError';
  }
}

// Far above the real files unzipped: a bound so a gzip bomb cannot exhaust memory.
const maxTextBytes = 128 * 1024 * 1024;
const maxTextLength = 200;
const int32Max = 2_147_483_647;
// Control characters would break XML 1.0 bodies; U+FFFD means the bytes were not UTF-8 (Latin-1?).
// eslint-disable-next-line no-control-regex -- rejects control characters in catalog text on purpose
const badCharacter = /[\u0000-\u001f\u007f\ufffd]/;

/** One CSV record being validated; every failure names its line. */
class RowReader {
  constructor(
    readonly fields: string[],
    readonly line: number,
  ) {}

  fail(reason: string): never {
    throw new CatalogFileError(this.line, reason);
  }

  text(index: number, column: string, allowEmpty = false): string {
    const value = this.fields[index];
    if (value === '' && allowEmpty) return value;
    if (value === '') this.fail(`${column} is empty`);
    if (value.length > maxTextLength) this.fail(`${column} is longer than ${maxTextLength} characters`);
    if (badCharacter.test(value)) this.fail(`${column} has a control character or is not valid UTF-8`);
    // Stored byte for byte, so whitespace must already be normalized (sorting and matching rely on it).
    if (value !== value.trim() || value.includes('  ')) this.fail(`${column} has untrimmed or repeated spaces`);
    return value;
  }

  int(index: number, column: string, min = 1, max = int32Max): number {
    const raw = this.fields[index];
    const value = /^(0|[1-9]\d{0,9})$/.test(raw) ? Number(raw) : NaN;
    if (!(value >= min && value <= max)) this.fail(`${column} must be an integer from ${min} to ${max}, got "${raw}"`);
    return value;
  }

  digits(index: number, column: string, count: number): string {
    const value = this.fields[index];
    if (value.length !== count || !/^\d+$/.test(value)) this.fail(`${column} must be ${count} digits, got "${value}"`);
    return value;
  }
}

/** Remembers the first value seen for a key, so a contradicting row can name both lines. */
class Consistency<V> {
  readonly #seen = new Map<string | number, { value: V; line: number }>();

  constructor(readonly what: string) {}

  /** Refuses a key seen before (values are ignored). */
  unique(row: RowReader, key: string | number): void {
    const first = this.#seen.get(key);
    if (first) row.fail(`${this.what} ${key} is repeated (first on line ${first.line})`);
    this.#seen.set(key, { value: undefined as V, line: row.line });
  }

  /** Refuses a key whose value differs from the one it had first. */
  check(row: RowReader, key: string | number, value: V, describe: (v: V) => string): void {
    const first = this.#seen.get(key);
    if (!first) this.#seen.set(key, { value, line: row.line });
    else if (first.value !== value) {
      row.fail(`${this.what} ${key} is ${describe(value)} here but ${describe(first.value)} on line ${first.line}`);
    }
  }
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Gunzips when the bytes start with the gzip magic number (1f 8b), then decodes UTF-8. */
export function decodeCatalogBytes(bytes: Uint8Array): string {
  let raw = bytes;
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      raw = gunzipSync(bytes, { maxOutputLength: maxTextBytes });
    } catch (err) {
      throw new CatalogFileError(0, `the gzip data is corrupt or too large (${(err as Error).message})`);
    }
  }
  if (raw.length > maxTextBytes) throw new CatalogFileError(0, `the file is larger than ${maxTextBytes} bytes`);
  // Not fatal on purpose: invalid bytes become U+FFFD, which the row checks refuse with a line number.
  return new TextDecoder('utf-8', { ignoreBOM: false }).decode(raw);
}

/** Parses the CSV text, checks the header, and hands each data record to `onRow`. */
function readRecords(text: string, columns: readonly string[], onRow: (row: RowReader) => void): void {
  let records: string[][];
  try {
    // Trailing blank lines are harmless; a blank line inside the file is refused below (1 field).
    // Field counts are checked below too, so that a wrong header is reported as such at line 1.
    // No `info` option: it costs noticeably more time, and line numbers follow from the order (see below).
    records = parse(withoutTrailingNewlines(text), { record_delimiter: ['\r\n', '\n'], relax_column_count: true });
  } catch (err) {
    if (err instanceof CsvError) throw new CatalogFileError(Number(err.lines) || 0, `malformed CSV: ${err.message}`);
    throw err;
  }
  if (records.length === 0)
    throw new CatalogFileError(1, `the file is empty; expected the header ${columns.join(',')}`);
  if (records[0].join(',') !== columns.join(',')) {
    const got = records[0].join(',').slice(0, 300);
    throw new CatalogFileError(1, `the header must be exactly "${columns.join(',')}", got "${got}"`);
  }
  if (records.length === 1) throw new CatalogFileError(0, 'the file has a header but no rows');
  // Record i sits on line i + 1 as long as no earlier field spans lines. Every field of every row
  // is checked and a line break fails every check, so the first refused row always has its true line.
  for (let i = 1; i < records.length; i++) {
    const row = new RowReader(records[i], i + 1);
    if (row.fields.length !== columns.length) row.fail(`expected ${columns.length} fields, got ${row.fields.length}`);
    onRow(row);
  }
}

function withoutTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
  return end === text.length ? text : text.slice(0, end);
}

export function parseVehiclesFile(bytes: Uint8Array): CatalogFile<VehicleRow> {
  const rows: VehicleRow[] = [];
  const versionIds = new Consistency<void>('version_id');
  const makeNames = new Consistency<string>('make_id');
  const makeIds = new Consistency<number>('make');
  const models = new Consistency<string>('model_id');
  const modelIds = new Consistency<number>('model');
  readRecords(decodeCatalogBytes(bytes), vehicleColumns, (r) => {
    const year = r.int(0, 'year', 1900, 2100);
    const makeId = r.int(1, 'make_id');
    const make = r.text(2, 'make');
    const modelId = r.int(3, 'model_id');
    const model = r.text(4, 'model');
    const versionId = r.int(5, 'version_id');
    const version = r.text(6, 'version');
    const transmission = r.fields[7] as Transmission;
    if (!transmissions.includes(transmission))
      r.fail(`transmission must be automatic or manual, got "${transmission}"`);
    // Each version is listed once; a repeated id would be a second line for the same version.
    versionIds.unique(r, versionId);
    // Ids and names must map one to one, or a brand/model would show under two ids or two names.
    makeNames.check(r, makeId, make, (v) => `"${v}"`);
    makeIds.check(r, make, makeId, (v) => `make_id ${v}`);
    models.check(r, modelId, `${makeId}/${model}`, (v) => `make_id/model ${v}`);
    modelIds.check(r, `${makeId}/${model}`, modelId, (v) => `model_id ${v}`);
    rows.push({ year, makeId, make, modelId, model, versionId, version, transmission });
  });
  return { rows, sha256: sha256Hex(bytes) };
}

export function parseZipCodesFile(bytes: Uint8Array): CatalogFile<ZipSettlementRow> {
  const rows: ZipSettlementRow[] = [];
  const settlementIds = new Consistency<void>('zip_code/settlement_id');
  const zipPlaces = new Consistency<string>('zip_code');
  const zipCities = new Consistency<string>('the city of zip_code');
  const stateNames = new Consistency<string>('state_code');
  const municipalities = new Consistency<string>('state_code/municipality_code');
  readRecords(decodeCatalogBytes(bytes), zipCodeColumns, (r) => {
    const row: ZipSettlementRow = {
      zipCode: r.digits(0, 'zip_code', 5),
      settlement: r.text(1, 'settlement'),
      settlementType: r.text(2, 'settlement_type'),
      municipality: r.text(3, 'municipality'),
      city: r.text(4, 'city', true),
      stateCode: r.digits(5, 'state_code', 2),
      stateName: r.text(6, 'state_name'),
      municipalityCode: r.digits(7, 'municipality_code', 3),
      settlementId: r.digits(8, 'settlement_id', 4),
      zone: r.text(9, 'zone'),
    };
    if (row.stateCode === '00') r.fail('state_code must be an INEGI state code from 01, got "00"');
    // The table's primary key: refused here with a line number rather than by the database.
    settlementIds.unique(r, `${row.zipCode}/${row.settlementId}`);
    // The API answers one municipality, city and state per ZIP code, so they must agree.
    zipPlaces.check(r, row.zipCode, `${row.stateCode}/${row.municipalityCode}`, (v) => `in state/municipality ${v}`);
    if (row.city !== '') zipCities.check(r, row.zipCode, row.city, (v) => `"${v}"`);
    stateNames.check(r, row.stateCode, row.stateName, (v) => `"${v}"`);
    municipalities.check(r, `${row.stateCode}/${row.municipalityCode}`, row.municipality, (v) => `"${v}"`);
    rows.push(row);
  });
  return { rows, sha256: sha256Hex(bytes) };
}

export function parseCatalogFile(kind: 'vehicles', bytes: Uint8Array): CatalogFile<VehicleRow>;
export function parseCatalogFile(kind: 'zipCodes', bytes: Uint8Array): CatalogFile<ZipSettlementRow>;
export function parseCatalogFile(
  kind: CatalogKind,
  bytes: Uint8Array,
): CatalogFile<VehicleRow> | CatalogFile<ZipSettlementRow>;
export function parseCatalogFile(
  kind: CatalogKind,
  bytes: Uint8Array,
): CatalogFile<VehicleRow> | CatalogFile<ZipSettlementRow> {
  return kind === 'vehicles' ? parseVehiclesFile(bytes) : parseZipCodesFile(bytes);
}
