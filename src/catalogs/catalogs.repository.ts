/**
 * SQL of the catalog tables (migration 002). A catalog is only ever replaced whole, in one
 * transaction, so a reader (or an instance starting meanwhile) sees the old or the new catalog,
 * never a mix, and a failed import leaves the old one in place.
 *
 * Beside its rows, each import stores the catalog as the service loads it, its snapshot (migration
 * 014): one JSON text in the catalog's meta row, the rows the index is built from as arrays (vehicles)
 * or the settlements grouped by ZIP code. A start reads two values instead of aggregating 39,712
 * vehicles and 155,847 settlements (0.3-0.4 s of the database's time at every start), and gets the
 * sha256 of the same import in the same read.
 */
import type { Db, Queryable } from '../db/database.ts';
import { systemClock, type Clock } from '../shared/clock.ts';
import type { CatalogKind, VehicleRow, ZipSettlementRow } from './catalog-file.ts';
import { groupZipRows, type ZipCodeGroup } from './catalog-index.ts';

export interface CatalogMeta {
  kind: CatalogKind;
  rowCount: number;
  sha256: string;
  importedAt: Date;
}

export interface CatalogsRepository {
  replaceVehicles(rows: readonly VehicleRow[], sha256: string): Promise<void>;
  replaceZipCodes(rows: readonly ZipSettlementRow[], sha256: string): Promise<void>;
  /** The rows of the tables as written (a start reads the snapshots instead). */
  loadVehicles(): Promise<VehicleRow[]>;
  loadZipCodes(): Promise<ZipSettlementRow[]>;
  /** The last import's snapshot, with its sha256; undefined when the catalog was never imported. */
  loadVehicleSnapshot(): Promise<Stored<VehicleRow[]> | undefined>;
  /** The settlements grouped by ZIP code, only the columns the index keeps. */
  loadZipCodeSnapshot(): Promise<Stored<ZipCodeGroup[]> | undefined>;
  meta(kind: CatalogKind): Promise<CatalogMeta | undefined>;
}

export interface Stored<T> {
  sha256: string;
  catalog: T;
}

/** How one catalog maps to its table: the table's columns in order, with the row field and array type of each. */
interface TableSpec<T> {
  kind: CatalogKind;
  table: string;
  orderBy: string;
  columns: readonly { name: string; key: keyof T & string; type: string }[];
}

const vehicleTable: TableSpec<VehicleRow> = {
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

const zipTable: TableSpec<ZipSettlementRow> = {
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

// One statement per batch: ~5,000 rows keeps each parameter array a few hundred KB, and the
// statement count low (32 for the ZIP catalog); larger batches were not faster on PGlite.
export const insertBatchSize = 5_000;

/** `insert ... select * from unnest($1::integer[], ...)`: a whole batch as one column array each. */
async function insertBatches<T>(tx: Queryable, spec: TableSpec<T>, rows: readonly T[]): Promise<void> {
  const names = spec.columns.map((c) => c.name).join(', ');
  const arrays = spec.columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ');
  const sql = `insert into ${spec.table} (${names}) select * from unnest(${arrays})`;
  for (let start = 0; start < rows.length; start += insertBatchSize) {
    const batch = rows.slice(start, start + insertBatchSize);
    await tx.query(sql, spec.columns.map((c) => batch.map((row) => row[c.key])));
  }
}

/** A row from its values in the order of the table's columns (the form of `loadRows` and of the snapshot). */
function rowOf<T>(spec: TableSpec<T>, values: unknown[]): T {
  const row: Record<string, unknown> = {};
  spec.columns.forEach((c, i) => (row[c.key] = values[i]));
  return row as T;
}

/**
 * Reads the whole table as ONE json value of row arrays: PGlite decodes result rows field by
 * field in JavaScript, which took 2.3 s for the 155,847 settlements against 0.7 s for this.
 */
async function loadRows<T>(db: Queryable, spec: TableSpec<T>): Promise<T[]> {
  const fields = spec.columns.map((c) => c.name).join(', ');
  const result = await db.query<{ rows: string }>(
    `select coalesce(json_agg(json_build_array(${fields}) order by ${spec.orderBy}), '[]')::text as rows from ${spec.table}`,
  );
  return (JSON.parse(result.rows[0].rows) as unknown[][]).map((values) => rowOf(spec, values));
}

/** A ZIP code in the snapshot, as an import writes it and migration 014 wrote it for earlier imports. */
type ZipSnapshotEntry = [zipCode: string, settlements: string[], municipality: string, city: string,
  stateCode: string, stateName: string];

const vehicleSnapshot = (rows: readonly VehicleRow[]): string =>
  JSON.stringify(rows.map((row) => vehicleTable.columns.map((c) => row[c.key])));

/** The city is the one some of the ZIP code's settlements give, '' when none does (as groupZipRows). */
const zipCodeSnapshot = (rows: readonly ZipSettlementRow[]): string =>
  JSON.stringify(groupZipRows(rows).map((g): ZipSnapshotEntry =>
    [g.zipCode, g.settlements, g.municipality, g.city, g.stateCode, g.stateName]));

async function readSnapshot(db: Queryable, kind: CatalogKind): Promise<Stored<unknown[]> | undefined> {
  const result = await db.query<{ sha256: string; snapshot: string }>(
    'select sha256, snapshot from catalog_meta where kind = $1',
    [kind],
  );
  const row = result.rows[0];
  return row && { sha256: row.sha256, catalog: JSON.parse(row.snapshot) as unknown[] };
}

export function createCatalogsRepository(db: Db, clock: Clock = systemClock): CatalogsRepository {
  async function replace<T>(spec: TableSpec<T>, rows: readonly T[], sha256: string, snapshot: string): Promise<void> {
    await db.transaction(async (tx) => {
      // Writing the meta row first takes its row lock, so two imports of the same catalog (two
      // instances on one PostgreSQL) run one after the other instead of interleaving their rows.
      await tx.query(
        `insert into catalog_meta (kind, row_count, sha256, imported_at, snapshot) values ($1, $2, $3, $4, $5)
         on conflict (kind) do update
           set row_count = excluded.row_count, sha256 = excluded.sha256, imported_at = excluded.imported_at,
               snapshot = excluded.snapshot`,
        [spec.kind, rows.length, sha256, clock.now(), snapshot],
      );
      // delete, not truncate: truncate would lock readers out until commit on PostgreSQL.
      await tx.query(`delete from ${spec.table}`);
      await insertBatches(tx, spec, rows);
      // Statistics for the new rows, for the queries that read the tables (an embedded database never
      // gathers them by itself; PostgreSQL would, later).
      await tx.query(`analyze ${spec.table}`);
    });
  }

  return {
    replaceVehicles: (rows, sha256) => replace(vehicleTable, rows, sha256, vehicleSnapshot(rows)),
    replaceZipCodes: (rows, sha256) => replace(zipTable, rows, sha256, zipCodeSnapshot(rows)),

    loadVehicles: () => loadRows(db, vehicleTable),
    loadZipCodes: () => loadRows(db, zipTable),
    async loadVehicleSnapshot() {
      const stored = await readSnapshot(db, 'vehicles');
      if (!stored) return undefined;
      const rows = (stored.catalog as unknown[][]).map((values) => rowOf(vehicleTable, values));
      return { sha256: stored.sha256, catalog: rows };
    },
    async loadZipCodeSnapshot() {
      const stored = await readSnapshot(db, 'zipCodes');
      if (!stored) return undefined;
      const groups = (stored.catalog as ZipSnapshotEntry[]).map(
        ([zipCode, settlements, municipality, city, stateCode, stateName]) =>
          ({ zipCode, settlements, municipality, city, stateCode, stateName }),
      );
      return { sha256: stored.sha256, catalog: groups };
    },

    async meta(kind) {
      const result = await db.query<{ row_count: number; sha256: string; imported_at: Date | string }>(
        'select row_count, sha256, imported_at from catalog_meta where kind = $1',
        [kind],
      );
      const row = result.rows[0];
      if (!row) return undefined;
      return { kind, rowCount: row.row_count, sha256: row.sha256, importedAt: new Date(row.imported_at) };
    },
  };
}
