/**
 * Forward-only numbered migrations (`migrations/NNN_name.sql`), the same on both engines, applied
 * at start in one transaction under an advisory lock so instances starting together never race (a busy
 * lock is asked for again after a pause, never waited for inside a statement: see `MigrationLockBusy`).
 * A migration never waits long for a lock others hold (a table busy with writes): each statement waits
 * at most `lockTimeoutMs`, and the transaction is tried again a few times, so writes queued behind the
 * migration's lock request are never stalled for longer than that (docs/operations.md, "Migrations").
 *
 * A migration whose first line is `-- autofin:no-transaction` builds indexes without blocking writes
 * (`create index concurrently if not exists`, which PostgreSQL refuses inside a transaction): on
 * PostgreSQL it runs on a connection of its own, statement by statement, under the same lock taken for
 * the session; an index a failed build left invalid is dropped and built again. On the embedded engine,
 * which has one connection and no concurrent writer, it runs in the transaction without `concurrently`.
 * `npm run lint` checks every migration with squawk (`.squawk.toml`).
 */
import { readdir, readFile } from 'node:fs/promises';
import type { Db, Queryable } from './database.ts';
import { projectFile } from '../shared/index.ts';

const migrationsDir = projectFile('src/db/migrations/');
// Any constant works; it only has to be the same for every instance.
const migrationLockKey = 4_815_162;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const noTransactionMark = /^--\s*autofin:no-transaction\b/;
/** Whether the migration runs outside the migration transaction (see the top of this file). */
export const outsideTransaction = (migration: Migration) => noTransactionMark.test(migration.sql);

export async function readMigrations(): Promise<Migration[]> {
  const files = (await readdir(migrationsDir)).filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => ({
      version: Number(file.slice(0, 3)),
      name: file.slice(4, -4),
      sql: await readFile(new URL(file, migrationsDir), 'utf8'),
    })),
  );
}

/**
 * The versions already applied, read without a transaction or a lock; undefined when no migration ever
 * ran (no table yet). A version missing here may be being applied by another instance: `migrate` then takes
 * the lock and looks again.
 */
async function appliedVersions(db: Db): Promise<Set<number> | undefined> {
  try {
    const { rows } = await db.query<{ version: number }>('select version from schema_migrations');
    return new Set(rows.map((r) => r.version));
  } catch (error) {
    if ((error as { code?: string }).code === '42P01') return undefined; // undefined_table
    throw error;
  }
}

/**
 * Applies the migrations not yet applied; returns their names. A start with every migration applied (every
 * restart) reads the applied versions in one statement and is done: on a cold embedded database each
 * statement of the locked transaction cost 15-20 ms more.
 */
export interface MigrateOptions {
  /** The migrations to apply (the project's by default). */
  migrations?: Migration[];
  /** How long a statement may wait for a lock before the transaction gives up and is tried again. */
  lockTimeoutMs?: number;
  /** How many times the transaction is tried. */
  attempts?: number;
}

const lockNotAvailable = '55P03';

export async function migrate(db: Db, options: MigrateOptions = {}): Promise<string[]> {
  const migrations = options.migrations ?? (await readMigrations());
  const applied = await appliedVersions(db);
  if (applied && migrations.every((m) => applied.has(m.version))) return [];
  const lockTimeoutMs = options.lockTimeoutMs ?? 2_000;
  const names: string[] = [];
  // In steps: the migrations up to the next one that runs outside a transaction, then that one.
  let remaining = migrations;
  while (remaining.length > 0) {
    const split = db.session ? remaining.findIndex(outsideTransaction) : -1;
    const inTransaction = split === -1 ? remaining : remaining.slice(0, split);
    if (inTransaction.length > 0) {
      names.push(...(await tried(options, () => applyPending(db, inTransaction, lockTimeoutMs))));
    }
    if (split === -1) break;
    const concurrent = remaining[split]!;
    if (await tried(options, () => applyOutsideTransaction(db, concurrent, lockTimeoutMs))) names.push(concurrent.name);
    remaining = remaining.slice(split + 1);
  }
  return names;
}

/**
 * Another instance holds the migration lock. The lock is asked for without waiting, and asked again after a
 * pause with no transaction open: a concurrent index build waits for every transaction that holds a
 * snapshot, so one waiting for the lock its builder holds would be a deadlock.
 */
class MigrationLockBusy extends Error {}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `step`, tried again while a lock it waits for stays busy past the lock timeout, or the migration lock is held. */
async function tried<T>(options: MigrateOptions, step: () => Promise<T>): Promise<T> {
  const attempts = options.attempts ?? 5;
  for (let attempt = 1, waits = 0; ;) {
    try {
      return await step();
    } catch (error) {
      if (error instanceof MigrationLockBusy) {
        await pause(Math.min(1_000, 50 * ++waits));
        continue;
      }
      if ((error as { code?: string }).code !== lockNotAvailable || attempt >= attempts) throw error;
      // The lock is busy: give the writes holding it room, then ask again.
      await pause(250 * attempt++);
    }
  }
}

/** Takes the migration lock (for the transaction, or for the session), or throws MigrationLockBusy. */
async function takeMigrationLock(connection: Queryable, scope: 'xact' | 'session'): Promise<void> {
  const fn = scope === 'xact' ? 'pg_try_advisory_xact_lock' : 'pg_try_advisory_lock';
  const { rows } = await connection.query<{ got: boolean }>(`select ${fn}($1) as got`, [migrationLockKey]);
  if (!rows[0]?.got) throw new MigrationLockBusy('another instance is migrating');
}

/**
 * A `-- autofin:no-transaction` migration on PostgreSQL: its statements one by one on a connection of its
 * own, under the migration lock taken for the session. False when another instance applied it meanwhile.
 */
async function applyOutsideTransaction(db: Db, migration: Migration, lockTimeoutMs: number): Promise<boolean> {
  return db.session!(async (connection) => {
    await takeMigrationLock(connection, 'session');
    try {
      const done = await connection.query('select 1 from schema_migrations where version = $1', [migration.version]);
      if (done.rowCount > 0) return false;
      await connection.query(`set lock_timeout = ${Math.max(1, Math.floor(lockTimeoutMs))}`);
      for (const statement of splitStatements(migration.sql)) {
        const index = concurrentIndex.exec(statement)?.[1];
        if (index) await dropInvalidIndex(connection, index);
        await connection.query(statement);
      }
      await connection.query('insert into schema_migrations (version, name) values ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [migrationLockKey]);
    }
  });
}

const concurrentIndex = /^create\s+(?:unique\s+)?index\s+concurrently\s+if\s+not\s+exists\s+([a-z_][a-z0-9_]*)/i;

/** An index a failed concurrent build left behind, invalid (never used, always maintained), is dropped. */
async function dropInvalidIndex(connection: Queryable, name: string): Promise<void> {
  const { rowCount } = await connection.query(
    `select 1 from pg_index i join pg_class c on c.oid = i.indexrelid
     where c.relname = $1 and c.relnamespace = current_schema()::regnamespace and not i.indisvalid`,
    [name],
  );
  if (rowCount > 0) await connection.query(`drop index concurrently if exists ${name}`);
}

async function applyPending(db: Db, migrations: Migration[], lockTimeoutMs: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    await takeMigrationLock(tx, 'xact');
    await tx.query(`set local lock_timeout = ${Math.max(1, Math.floor(lockTimeoutMs))}`);
    await tx.query(
      `create table if not exists schema_migrations (
         version integer primary key, name text not null, applied_at timestamptz not null default now())`,
    );
    const done = await tx.query<{ version: number }>('select version from schema_migrations');
    const applied = new Set(done.rows.map((r) => r.version));
    const names: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      // The embedded engine's one connection: a concurrent build is an ordinary one there.
      const outside = outsideTransaction(migration);
      for (const statement of splitStatements(migration.sql)) {
        await tx.query(outside ? withoutConcurrently(statement) : statement);
      }
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      names.push(migration.name);
    }
    return names;
  });
}

const withoutConcurrently = (statement: string) =>
  statement.replace(/^(create\s+(?:unique\s+)?index)\s+concurrently\b/i, '$1');

/**
 * Statements are split on semicolons at line ends, except inside `$$ … $$` (a trigger function's
 * body), which is kept whole.
 */
function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  sql.split('$$').forEach((part, index) => {
    if (index % 2 === 1) {
      current += `$$${part}$$`;
      return;
    }
    const [first, ...rest] = part.split(/;\s*(?:\r?\n|$)/);
    current += first;
    for (const piece of rest) {
      statements.push(current);
      current = piece;
    }
  });
  statements.push(current);
  return statements.map((s) => s.replace(/^\s*--.*$/gm, '').trim()).filter((s) => s.length > 0);
}
