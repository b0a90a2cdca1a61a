/**
 * A catalog in the forms it is stored in (migrations 002, 014, 020 and 021): its table's rows as the text
 * of a COPY; its snapshot, one JSON array a line, a vehicle's values in the table's column order, or a
 * ZIP code with its settlements; and the snapshot packed (catalog-packed.ts), the bytes a start builds the
 * index from. The index reads a line only when an answer needs it (catalog-index.ts), so a start parses
 * nothing. Pure functions, run where a file is parsed (a worker thread, catalog-parse-worker.ts) so the
 * thread that serves requests only sends the forms and reads the packed one back.
 */
import type { CatalogFile, CatalogKind, VehicleRow, ZipSettlementRow } from './catalog-file.ts';
import { packSnapshot } from './catalog-packed.ts';

/** How one catalog maps to its table: the table's columns in order, with the row field and type of each. */
export interface TableSpec<T> {
  kind: CatalogKind;
  table: string;
  orderBy: string;
  columns: readonly { name: string; key: keyof T & string; type: string }[];
}

export const vehicleTable: TableSpec<VehicleRow> = {
  kind: 'vehicles',
  table: 'catalog_vehicle',
  orderBy: 'version_id',
  columns: [
    { name: 'version_id', key: 'versionId', type: 'integer' },
    { name: 'year', key: 'year', type: 'smallint' },
    { name: 'make_id', key: 'makeId', type: 'integer' },
    { name: 'make', key: 'make', type: 'text' },
    { name: 'model_id', key: 'modelId', type: 'integer' },
    { name: 'model', key: 'model', type: 'text' },
    { name: 'version', key: 'version', type: 'text' },
    { name: 'transmission', key: 'transmission', type: 'text' },
  ],
};

export const zipTable: TableSpec<ZipSettlementRow> = {
  kind: 'zipCodes',
  table: 'catalog_zip_settlement',
  orderBy: 'zip_code, settlement_id',
  columns: [
    { name: 'zip_code', key: 'zipCode', type: 'text' },
    { name: 'settlement', key: 'settlement', type: 'text' },
    { name: 'settlement_type', key: 'settlementType', type: 'text' },
    { name: 'municipality', key: 'municipality', type: 'text' },
    { name: 'city', key: 'city', type: 'text' },
    { name: 'state_code', key: 'stateCode', type: 'text' },
    { name: 'state_name', key: 'stateName', type: 'text' },
    { name: 'municipality_code', key: 'municipalityCode', type: 'text' },
    { name: 'settlement_id', key: 'settlementId', type: 'text' },
    { name: 'zone', key: 'zone', type: 'text' },
  ],
};

/** A catalog ready to store: what an import writes, in one transaction. */
export interface StoredCatalog {
  kind: CatalogKind;
  rowCount: number;
  /** sha256 of the imported file. */
  sha256: string;
  /** The table's rows, for `copyCsv`. */
  copyText: string;
  snapshot: string;
  /** The snapshot packed (catalog-packed.ts): what a start reads and the service holds. */
  packed: Buffer;
}

/**
 * The settlements of one ZIP code as the index needs them: their names (repeats allowed, any
 * order), and the municipality, city ('' when SEPOMEX gives none) and state, one per ZIP code
 * (catalog-file.ts refuses a file where they disagree).
 */
export interface ZipCodeGroup {
  zipCode: string;
  settlements: string[];
  municipality: string;
  city: string;
  stateCode: string;
  stateName: string;
}

/** Groups settlement rows by ZIP code. */
export function groupZipRows(rows: readonly ZipSettlementRow[]): ZipCodeGroup[] {
  const groups = new Map<string, ZipCodeGroup>();
  for (const row of rows) {
    const group = groups.get(row.zipCode);
    if (!group) {
      const { zipCode, municipality, city, stateCode, stateName } = row;
      groups.set(zipCode, { zipCode, settlements: [row.settlement], municipality, city, stateCode, stateName });
    } else {
      group.settlements.push(row.settlement);
      // The importer allows one non-empty city per ZIP code; some of its settlements may have none.
      if (group.city === '') group.city = row.city;
    }
  }
  return [...groups.values()];
}

/**
 * A COPY's text: one CSV line a row, in the table's column order. Every text is quoted, so an
 * empty city stays an empty string (an unquoted empty field would be NULL); the importer refuses
 * line breaks in any field, so a row never spans lines.
 */
export function copyText<T>(spec: TableSpec<T>, rows: readonly T[]): string {
  const fields = spec.columns.map((c) => ({ key: c.key, quoted: c.type === 'text' }));
  const lines = new Array<string>(rows.length + 1);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    lines[r] = fields
      .map(({ key, quoted }) => (quoted ? `"${String(row[key]).replaceAll('"', '""')}"` : String(row[key])))
      .join(',');
  }
  lines[rows.length] = '';
  return lines.join('\n');
}

/** A row from its values in the order of the table's columns (the form of the snapshot and of whole-table reads). */
export function rowOf<T>(spec: TableSpec<T>, values: unknown[]): T {
  const row: Record<string, unknown> = {};
  spec.columns.forEach((c, i) => (row[c.key] = values[i]));
  return row as T;
}

/** A ZIP code's line in the snapshot, as an import writes it and migration 020 wrote it for earlier imports. */
export type ZipSnapshotEntry = [
  zipCode: string,
  settlements: string[],
  municipality: string,
  city: string,
  stateCode: string,
  stateName: string,
];

/**
 * Lines of JSON arrays. JSON escapes line breaks inside its strings, so a line is always one whole
 * entry.
 */
const lines = (entries: readonly unknown[]): string => entries.map((entry) => JSON.stringify(entry)).join('\n');

/** The entries of a snapshot, each line parsed (the tests and a catalog's whole reads). */
const entriesOf = <T>(snapshot: string): T[] =>
  snapshot === '' ? [] : snapshot.split('\n').map((line) => JSON.parse(line) as T);

/** In version id order, the order the index looks versions up in (and migration 020 writes). */
export const vehicleSnapshot = (rows: readonly VehicleRow[]): string =>
  lines([...rows].sort((a, b) => a.versionId - b.versionId).map((row) => vehicleTable.columns.map((c) => row[c.key])));

const zipEntry = (g: ZipCodeGroup): ZipSnapshotEntry => [
  g.zipCode,
  g.settlements,
  g.municipality,
  g.city,
  g.stateCode,
  g.stateName,
];

/** The snapshot of ZIP codes already grouped, in ZIP code order (the order the index looks them up in). */
export const zipGroupsSnapshot = (groups: readonly ZipCodeGroup[]): string =>
  lines([...groups].sort((a, b) => (a.zipCode < b.zipCode ? -1 : a.zipCode > b.zipCode ? 1 : 0)).map(zipEntry));

/** The city is the one some of the ZIP code's settlements give, '' when none does (as groupZipRows). */
export const zipCodeSnapshot = (rows: readonly ZipSettlementRow[]): string => zipGroupsSnapshot(groupZipRows(rows));

export const vehiclesOfSnapshot = (snapshot: string): VehicleRow[] =>
  entriesOf<unknown[]>(snapshot).map((values) => rowOf(vehicleTable, values));

export const zipGroupOfEntry = ([
  zipCode,
  settlements,
  municipality,
  city,
  stateCode,
  stateName,
]: ZipSnapshotEntry): ZipCodeGroup => ({ zipCode, settlements, municipality, city, stateCode, stateName });

export const zipCodesOfSnapshot = (snapshot: string): ZipCodeGroup[] =>
  entriesOf<ZipSnapshotEntry>(snapshot).map(zipGroupOfEntry);

/** A parsed file in every form an import stores, `snapshot` being its snapshot's text. */
function stored<T>(spec: TableSpec<T>, file: CatalogFile<T>, snapshot: string): StoredCatalog {
  const { rows, sha256 } = file;
  const packed = packSnapshot(snapshot, spec.kind);
  return { kind: spec.kind, rowCount: rows.length, sha256, copyText: copyText(spec, rows), snapshot, packed };
}

export const storedVehicles = (file: CatalogFile<VehicleRow>): StoredCatalog =>
  stored(vehicleTable, file, vehicleSnapshot(file.rows));

export const storedZipCodes = (file: CatalogFile<ZipSettlementRow>): StoredCatalog =>
  stored(zipTable, file, zipCodeSnapshot(file.rows));
