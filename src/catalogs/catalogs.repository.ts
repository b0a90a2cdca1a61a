/**
 * SQL of the catalog tables (migration 002). A catalog is only ever replaced whole, in one
 * transaction, so a reader (or an instance starting meanwhile) sees the old or the new catalog,
 * never a mix, and a failed import leaves the old one in place.
 *
 * Beside its rows, each import stores the catalog as the service loads it, in the catalog's meta row: its
 * snapshot (migrations 014 and 020), a JSON array a line, the vehicles' values or the settlements grouped by
 * ZIP code (catalog-stored-form.ts), and the snapshot packed (migration 021, catalog-packed.ts). A start
 * reads the two packed values (2 MB) instead of aggregating 39,712 vehicles and 155,847 settlements (0.3-0.4 s
 * of the database's time at every start) or reading the 8.6 MB of snapshots, and gets the sha256 of the same
 * import in the same read. The service itself never queries the rows: an import gathers no statistics for
 * them (the tests read them whole, and an operator may query them).
 */
import type { Db, Queryable } from '../db/index.ts';
import { systemClock, type Clock } from '../shared/index.ts';
import { packSnapshot } from './catalog-packed.ts';
import type { CatalogKind, VehicleRow, ZipSettlementRow } from './catalog-file.ts';
import {
  rowOf,
  storedVehicles,
  storedZipCodes,
  vehicleTable,
  zipTable,
  type StoredCatalog,
  type TableSpec,
} from './catalog-stored-form.ts';

export interface CatalogMeta {
  kind: CatalogKind;
  rowCount: number;
  sha256: string;
  importedAt: Date;
}

export interface CatalogsRepository {
  /** Replaces the catalog, its meta row and snapshot in one transaction. */
  replace(catalog: StoredCatalog): Promise<void>;
  /** `replace` of rows given here (their stored forms are made in this thread). */
  replaceVehicles(rows: readonly VehicleRow[], sha256: string): Promise<void>;
  replaceZipCodes(rows: readonly ZipSettlementRow[], sha256: string): Promise<void>;
  /** The rows of the tables as written (a start reads the snapshots instead). */
  loadVehicles(): Promise<VehicleRow[]>;
  loadZipCodes(): Promise<ZipSettlementRow[]>;
  /** The last import's snapshot, with its sha256; undefined when the catalog was never imported. */
  loadSnapshot(kind: CatalogKind): Promise<StoredSnapshot | undefined>;
  /**
   * The last import's packed form (what a start loads), with its sha256; undefined when the catalog was
   * never imported. An import made before migration 021 has none: it is packed from its snapshot then, and
   * stored, once.
   */
  loadPacked(kind: CatalogKind): Promise<StoredPacked | undefined>;
  meta(kind: CatalogKind): Promise<CatalogMeta | undefined>;
}

export interface StoredSnapshot {
  sha256: string;
  snapshot: string;
}

export interface StoredPacked {
  sha256: string;
  packed: Buffer;
}

/**
 * Reads the whole table as ONE json value of row arrays: PGlite decodes result rows field by
 * field in JavaScript, which took 2.3 s for the 155,847 settlements against 0.7 s for this.
 */
async function loadRows<T>(db: Queryable, spec: TableSpec<T>): Promise<T[]> {
  const fields = spec.columns.map((c) => c.name).join(', ');
  const result = await db.query<{ rows: string }>(
    `select coalesce(json_agg(json_build_array(${fields}) order by ${spec.orderBy}), '[]')::text as rows
       from ${spec.table}`,
  );
  return (JSON.parse(result.rows[0].rows) as unknown[][]).map((values) => rowOf(spec, values));
}

export function createCatalogsRepository(db: Db, clock: Clock = systemClock): CatalogsRepository {
  const tables = { vehicles: vehicleTable, zipCodes: zipTable };

  async function replace(catalog: StoredCatalog): Promise<void> {
    const { table, columns } = tables[catalog.kind];
    await db.transaction(async (tx) => {
      // Writing the meta row first takes its row lock, so two imports of the same catalog (two
      // instances on one PostgreSQL) run one after the other instead of interleaving their rows.
      await tx.query(
        `insert into catalog_meta (kind, row_count, sha256, imported_at, snapshot, packed)
         values ($1, $2, $3, $4, $5, decode($6, 'base64'))
         on conflict (kind) do update
           set row_count = excluded.row_count, sha256 = excluded.sha256, imported_at = excluded.imported_at,
               snapshot = excluded.snapshot, packed = excluded.packed`,
        [
          catalog.kind,
          catalog.rowCount,
          catalog.sha256,
          clock.now(),
          catalog.snapshot,
          catalog.packed.toString('base64'),
        ],
      );
      // delete, not truncate: truncate would lock readers out until commit on PostgreSQL.
      await tx.query(`delete from ${table}`);
      // COPY: on PostgreSQL it stores the 155,847 settlements in about a third of the time of
      // batched inserts (docs/performance.md).
      await tx.copyCsv(
        table,
        columns.map((c) => c.name),
        catalog.copyText,
      );
    });
  }

  async function loadSnapshot(kind: CatalogKind): Promise<StoredSnapshot | undefined> {
    const result = await db.query<StoredSnapshot>('select sha256, snapshot from catalog_meta where kind = $1', [kind]);
    return result.rows[0];
  }

  return {
    replace,
    replaceVehicles: (rows, sha256) => replace(storedVehicles({ rows: [...rows], sha256 })),
    replaceZipCodes: (rows, sha256) => replace(storedZipCodes({ rows: [...rows], sha256 })),

    loadVehicles: () => loadRows(db, vehicleTable),
    loadZipCodes: () => loadRows(db, zipTable),
    loadSnapshot,
    async loadPacked(kind) {
      // As base64 text, both ways: the embedded engine decodes a bytea's hex a byte at a time in JavaScript
      // (0.2 s for these 2.5 MB), where Buffer decodes base64 natively.
      const result = await db.query<{ sha256: string; packed: string | null }>(
        `select sha256, encode(packed, 'base64') as packed from catalog_meta where kind = $1`,
        [kind],
      );
      const row = result.rows[0];
      if (!row) return undefined;
      if (row.packed !== null) return { sha256: row.sha256, packed: Buffer.from(row.packed, 'base64') };
      const stored = await loadSnapshot(kind);
      if (!stored) return undefined;
      const packed = packSnapshot(stored.snapshot, kind);
      // Only onto the import it was packed from: another instance may have imported a catalog meanwhile.
      await db.query(
        `update catalog_meta set packed = decode($3, 'base64') where kind = $1 and sha256 = $2 and packed is null`,
        [kind, stored.sha256, packed.toString('base64')],
      );
      return { sha256: stored.sha256, packed };
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
