/**
 * The embedded engine: PGlite kept in a folder (or in memory for tests). PGlite is imported when an embedded
 * database is first opened, so a service on PostgreSQL never loads it.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable, QueryResult, Transaction } from './database.ts';
import { queryError } from './query-error.ts';

interface PgliteLike {
  query<T>(sql: string, params?: unknown[], options?: { blob?: Blob }): Promise<{ rows: T[]; affectedRows?: number }>;
}

/**
 * An instant as PostgreSQL reads it. PGlite sends a Date as its ISO string, which for the year 10000 (the
 * end of 9999-12-31 west of UTC) is `+010000-…`, read as a time zone; PostgreSQL takes `10000-…`.
 */
function pgInstant(date: Date): string {
  const iso = date.toISOString();
  return iso.startsWith('+') ? iso.slice(1).replace(/^0+(?=\d{5})/, '') : iso;
}

function withInstants(params: unknown[]): unknown[] {
  for (let i = 0; i < params.length; i++) {
    const value = params[i];
    if (value instanceof Date && value.getUTCFullYear() > 9999) {
      return params.map((p) => (p instanceof Date ? pgInstant(p) : p));
    }
  }
  return params;
}

function wrap(target: PgliteLike): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      try {
        const result = await target.query<T>(sql, withInstants(params));
        return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
      } catch (error) {
        throw queryError(error, sql);
      }
    },
  };
}

function transactionOf(tx: PgliteLike): Transaction {
  return {
    ...wrap(tx),
    async copyCsv(table, columns, csv) {
      // PGlite reads the rows of a COPY from the blob given with the query.
      const sql = `copy ${table} (${columns.join(', ')}) from '/dev/blob' with (format csv)`;
      try {
        await tx.query(sql, [], { blob: new Blob([csv]) });
      } catch (error) {
        throw queryError(error, sql);
      }
    },
  };
}

export function pgliteDb(pg: PGlite): Db {
  const base = wrap(pg);
  return {
    engine: 'pglite',
    query: base.query,
    // PGlite serializes transactions against every other query on its single connection.
    transaction: (fn) => pg.transaction((tx) => fn(transactionOf(tx))),
    // Notifications of the one embedded connection are handed to its listeners in this process.
    async listen(channel, onNotify) {
      const stop = await pg.listen(channel, () => onNotify());
      return async () => {
        if (!pg.closed) await stop();
      };
    },
    async dumpDataDir() {
      // The checkpoint writes committed pages to the data files, so a restore replays little WAL. The dump
      // itself runs alone on the single connection: no statement runs while the files are read, and a
      // transaction still open then is rolled back when the copy is opened, as after a crash.
      await pg.query('checkpoint');
      return pg.dumpDataDir('gzip');
    },
    async ping() {
      try {
        await pg.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (!pg.closed) await pg.close();
    },
  };
}

/**
 * PostgreSQL's settings for the embedded engine, beside PGlite's own: 16 MB of shared buffers instead of
 * PostgreSQL's 128 MB. The buffers live in the WebAssembly memory, which never shrinks, and are cleared at
 * every start: the larger size cost an embedded instance about 100 MiB of memory and 0.3 s of start for
 * no gain, since every page read past them comes from the operating system's file cache
 * (docs/performance.md, "Where a start's time and an instance's memory go"). WAL segments a checkpoint
 * no longer needs are removed rather than kept for reuse under a later name with their bytes intact
 * (`wal_recycle=off`): an erased lead's key must not outlive its erasure in one (docs/operations.md, "Erasure").
 * A page read at random costs about what a page read in sequence does, both from that cache
 * (`random_page_cost=1.1`, PostgreSQL's 4 assumes a spinning disk): the embedded database is never analyzed,
 * and with 4 the planner scanned whole webhook tables to claim a delivery until they held about 4,000 rows.
 */
const embeddedSettings = ['-c', 'shared_buffers=16MB', '-c', 'wal_recycle=off', '-c', 'random_page_cost=1.1'];

/**
 * Opens PGlite with the service's settings: in `directory` (created when absent) or in memory, from the
 * files of `loadDataDir` (a `dumpDataDir` archive) when the folder is new.
 */
export async function createPglite(directory?: string, loadDataDir?: Blob): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create(directory, {
    startParams: [...PGlite.defaultStartParams, ...embeddedSettings],
    ...(loadDataDir ? { loadDataDir } : {}),
  });
}

/** Opens (creating when absent) the embedded database in `directory`, or in memory when undefined. */
export async function openPgliteDb(directory: string | undefined, loadDataDir?: Blob): Promise<Db> {
  return pgliteDb(await createPglite(directory, loadDataDir));
}
