/**
 * The databases tests run on, on the engine the run asks for: PGlite loaded from a migrated template with
 * the shipped catalogs, or a schema on PostgreSQL (`DATABASE_URL`) migrated once and given the template
 * schema's catalogs. Three kinds, each opened at most once per process where it can be:
 *
 * - shared (`sharedTestDatabase`): one per test process. Files keep apart by tenant: every test makes its
 *   own company, so they never see each other's leads. Closing a view of it leaves it open.
 * - own (`ownTestDatabase`): one more per process for files that read or write lender-wide tables
 *   (operators, audit, keys, backups, the funnel, retention, webhook claims across companies). Every
 *   table but the catalogs is emptied when a file takes it; a second taker while it is held gets a fresh one.
 * - fresh (`createTestDatabase`): a new database from the template, for files that change the catalogs
 *   or need a database nobody else has opened.
 * - empty (`emptyTestDatabase`): no migration applied, for the tests of the migrations themselves.
 */
import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import type { Db } from '../src/db/index.ts';
import { createPglite, pgliteDb } from '../src/db/pglite-db.ts';
import { openPostgresDb } from '../src/db/postgres-db.ts';
import { createTestDatabase, tablesOf, type TestDatabase } from './test-templates.ts';

export { createTestDatabase, type TestDatabase };

/** A view of `database` whose close and drop leave it open for the next file. */
function kept(database: TestDatabase, release: () => void = () => {}): TestDatabase {
  let released = false;
  const giveBack = async () => {
    if (released) return;
    released = true;
    release();
  };
  return { ...database, db: { ...database.db, close: giveBack }, drop: giveBack };
}

let shared: Promise<TestDatabase> | undefined;

/** The process's shared database (see the top of this file). */
export async function sharedTestDatabase(): Promise<TestDatabase> {
  shared ??= createTestDatabase();
  return kept(await shared);
}

let own: Promise<TestDatabase> | undefined;
let ownHeld = false;

/**
 * The process's database for lender-wide tables, emptied but for its catalogs; while another holder has it,
 * a fresh database instead.
 */
export async function ownTestDatabase(): Promise<TestDatabase> {
  if (ownHeld) return createTestDatabase();
  ownHeld = true;
  try {
    own ??= createTestDatabase();
    const database = await own;
    const { others } = await tablesOf(database.db);
    // The audit records' trigger refuses a truncation, as it refuses every change: triggers are off for it.
    await database.db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query(`truncate ${others.join(', ')} restart identity cascade`);
    });
    return kept(database, () => {
      ownHeld = false;
    });
  } catch (error) {
    ownHeld = false;
    throw error;
  }
}

/** An empty database: PGlite in memory, or a schema of its own on PostgreSQL (DATABASE_URL). */
export async function emptyTestDatabase(): Promise<{ db: Db; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = pgliteDb(await createPglite());
    return { db, drop: () => db.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = await openPostgresDb(url, { schema, max: 2 });
  return {
    db,
    async drop() {
      await db.query(`drop schema ${schema} cascade`);
      await db.close();
    },
  };
}

/**
 * When every test of the process has run (of one file, or of all files in the in-process lane), the
 * databases kept for the next file are closed, so the process can end.
 */
after(async () => {
  const open = await Promise.allSettled([shared, own].filter((d) => d !== undefined));
  shared = undefined;
  own = undefined;
  for (const result of open) if (result.status === 'fulfilled') await result.value.drop();
});
