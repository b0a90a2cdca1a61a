/**
 * The one database port every repository uses. Two engines implement it: the embedded PGlite
 * (default) and a PostgreSQL server (`DATABASE_URL`). SQL is written once for both.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export type Engine = 'pglite' | 'postgres';

export interface Transaction extends Queryable {
  /**
   * Stores many rows at once: `copy <table> (<columns>) from … with (format csv)` of `csv`, one row
   * a line, in the columns' order. Several times faster than inserts for a whole catalog.
   * `table` and `columns` are the service's own identifiers, never input.
   */
  copyCsv(table: string, columns: readonly string[], csv: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly engine: Engine;
  /** Runs `fn` in one transaction. Keep it short: no provider call, hashing or sleep inside. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` for every notification on `channel` (one of the service's own identifiers),
   * sent by a committed transaction of any instance; and once more after the listener had to
   * reconnect, since notifications sent meanwhile are lost. Resolves to a function that stops.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /**
   * The embedded engine only: a consistent copy of the whole database while it serves (a gzip'd tar of its
   * folder, what `restoreDataDir` loads). Absent on PostgreSQL, whose backups are pg_dump's.
   */
  dumpDataDir?(): Promise<Blob>;
  /**
   * PostgreSQL only: `fn` on one connection of its own, outside any transaction, for what must run there
   * (`create index concurrently`, a session's advisory lock). The embedded engine, one connection, has none.
   */
  session?<T>(fn: (connection: Queryable) => Promise<T>): Promise<T>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
