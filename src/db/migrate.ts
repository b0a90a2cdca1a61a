/**
 * Forward-only numbered migrations (`migrations/NNN_name.sql`), the same on both engines, applied
 * at start in one transaction under an advisory lock so instances starting together never race.
 * A migration never waits long for a lock others hold (a table busy with writes): each statement waits
 * at most `lockTimeoutMs`, and the transaction is tried again a few times, so writes queued behind the
 * migration's lock request are never stalled for longer than that (docs/operations.md, "Running").
 */
import { readdir, readFile } from 'node:fs/promises';
import type { Db } from './database.ts';
import { projectFile } from '../shared/index.ts';

const migrationsDir = projectFile('src/db/migrations/');
// Any constant works; it only has to be the same for every instance.
const migrationLockKey = 4_815_162;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

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
  const attempts = options.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await applyPending(db, migrations, options.lockTimeoutMs ?? 2_000);
    } catch (error) {
      if ((error as { code?: string }).code !== lockNotAvailable || attempt >= attempts) throw error;
      // The lock is busy: give the writes holding it room, then ask again.
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
}

async function applyPending(db: Db, migrations: Migration[], lockTimeoutMs: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [migrationLockKey]);
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
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      names.push(migration.name);
    }
    return names;
  });
}

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
