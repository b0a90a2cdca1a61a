/**
 * SQL of the catalog tables (migration 002). A catalog is only ever replaced whole, in one
 * transaction, so a reader (or an instance starting meanwhile) sees the old or the new catalog,
 * never a mix, and a failed import leaves the old one in place.
 */
import type { Db, Queryable } from '../db/database.ts';
import { systemClock, type Clock } from '../shared/clock.ts';
import type { CatalogKind, VehicleRow, ZipSettlementRow } from './catalog-file.ts';
import type { ZipCodeGroup } from './catalog-index.ts';

export interface CatalogMeta {
  kind: CatalogKind;
  rowCount: number;
  sha256: string;
  importedAt: Date;
}

export interface CatalogsRepository {
  replaceVehicles(rows: readonly VehicleRow[], sha256: string): Promise<void>;
  replaceZipCodes(rows: readonly ZipSettlementRow[], sha256: string): Promise<void>;
  loadVehicles(): Promise<VehicleRow[]>;
  loadZipCodes(): Promise<ZipSettlementRow[]>;
  /** The settlements grouped by ZIP code, only the columns the index keeps. */
  loadZipCodeGroups(): Promise<ZipCodeGroup[]>;
  meta(kind: CatalogKind): Promise<CatalogMeta | undefined>;
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

/**
 * Reads the whole table as ONE json value of row arrays: PGlite decodes result rows field by
 * field in JavaScript, which took 2.3 s for the 155,847 settlements against 0.7 s for this.
 */
async function loadRows<T>(db: Queryable, spec: TableSpec<T>): Promise<T[]> {
  const fields = spec.columns.map((c) => c.name).join(', ');
  const result = await db.query<{ rows: string }>(
    `select coalesce(json_agg(json_build_array(${fields}) order by ${spec.orderBy}), '[]')::text as rows from ${spec.table}`,
  );
  const arrays = JSON.parse(result.rows[0].rows) as unknown[][];
  return arrays.map((values) => {
    const row: Record<string, unknown> = {};
    spec.columns.forEach((c, i) => (row[c.key] = values[i]));
    return row as T;
  });
}

// ZIP codes per query when loading the grouped catalog (8 queries for the shipped one).
export const zipGroupPageSize = 4_000;

/**
 * The ZIP catalog grouped by the database, a page of ZIP codes at a time, each page as one json
 * value like `loadRows`: groups instead of 155,847 rows of ten columns, so far less text to parse,
 * and a page's text at a time instead of the whole table's (the process keeps the memory it
 * once needed). Municipality, city and state agree within a ZIP code (catalog-file.ts);
 * `max(city)` picks the non-empty one when some settlements have none.
 */
async function loadZipGroups(db: Queryable): Promise<ZipCodeGroup[]> {
  const groups: ZipCodeGroup[] = [];
  for (let after = ''; ;) {
    const result = await db.query<{ page: string }>(
      `select coalesce(json_agg(json_build_array(zip_code, settlements, municipality, city, state_code, state_name)
                                order by zip_code), '[]')::text as page
         from (select zip_code, json_agg(settlement) as settlements, min(municipality) as municipality,
                      max(city) as city, min(state_code) as state_code, min(state_name) as state_name
                 from catalog_zip_settlement where zip_code > $1
                group by zip_code order by zip_code limit $2) as grouped`,
      [after, zipGroupPageSize],
    );
    const page = JSON.parse(result.rows[0].page) as [string, string[], string, string, string, string][];
    for (const [zipCode, settlements, municipality, city, stateCode, stateName] of page) {
      groups.push({ zipCode, settlements, municipality, city, stateCode, stateName });
    }
    if (page.length < zipGroupPageSize) return groups;
    after = page[page.length - 1][0];
  }
}

export function createCatalogsRepository(db: Db, clock: Clock = systemClock): CatalogsRepository {
  async function replace<T>(spec: TableSpec<T>, rows: readonly T[], sha256: string): Promise<void> {
    await db.transaction(async (tx) => {
      // Writing the meta row first takes its row lock, so two imports of the same catalog (two
      // instances on one PostgreSQL) run one after the other instead of interleaving their rows.
      await tx.query(
        `insert into catalog_meta (kind, row_count, sha256, imported_at) values ($1, $2, $3, $4)
         on conflict (kind) do update
           set row_count = excluded.row_count, sha256 = excluded.sha256, imported_at = excluded.imported_at`,
        [spec.kind, rows.length, sha256, clock.now()],
      );
      // delete, not truncate: truncate would lock readers out until commit on PostgreSQL.
      await tx.query(`delete from ${spec.table}`);
      await insertBatches(tx, spec, rows);
      // Statistics for the new rows: without them the planner guesses 200 ZIP codes, groups the whole
      // table for each page of `loadZipGroups` and keeps 4,000 (115-195 ms a page on PostgreSQL
      // instead of 10 ms). An embedded database never gathers them by itself; PostgreSQL would, later.
      await tx.query(`analyze ${spec.table}`);
    });
  }

  return {
    replaceVehicles: (rows, sha256) => replace(vehicleTable, rows, sha256),
    replaceZipCodes: (rows, sha256) => replace(zipTable, rows, sha256),

    loadVehicles: () => loadRows(db, vehicleTable),
    loadZipCodes: () => loadRows(db, zipTable),
    loadZipCodeGroups: () => loadZipGroups(db),

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
