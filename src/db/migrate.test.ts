import { test } from 'node:test';
import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { createTestDatabase } from '../../test/test-database.ts';
import type { Db, Transaction } from './database.ts';
import { migrate, readMigrations } from './migrate.ts';
import { createPglite, pgliteDb } from './pglite-db.ts';
import { openPostgresDb } from './postgres-db.ts';

/** The database, with every statement it runs (in a transaction or not) written down. */
function recorded(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const record = (sql: string) => statements.push(sql.replace(/\s+/g, ' ').trim());
  const wrapped: Db = {
    ...db,
    query: (sql, params) => (record(sql), db.query(sql, params)),
    transaction: (fn) =>
      db.transaction((tx) => {
        record('begin');
        const inner: Transaction = { ...tx, query: (sql, params) => (record(sql), tx.query(sql, params)) };
        return fn(inner);
      }),
  };
  return { db: wrapped, statements };
}

test('a database with every migration applied is read in one statement, with no transaction or lock', async () => {
  const database = await createTestDatabase();
  try {
    const { db, statements } = recorded(database.db);
    assert.deepEqual(await migrate(db), []);
    assert.deepEqual(statements, ['select version from schema_migrations']);
  } finally {
    await database.drop();
  }
});

/** An empty database: PGlite in memory, or a schema of its own on PostgreSQL (DATABASE_URL). */
async function emptyDatabase(): Promise<{ db: Db; drop: () => Promise<void> }> {
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

test('an empty database gets every migration under the lock; the next start reads it in one statement', async () => {
  const database = await emptyDatabase();
  try {
    const { db, statements } = recorded(database.db);
    const names = (await readMigrations()).map((m) => m.name);
    assert.deepEqual(await migrate(db), names);
    assert.equal(statements[0], 'select version from schema_migrations');
    assert.ok(statements.includes('begin'), statements.slice(0, 5).join('\n'));
    assert.ok(statements.includes('select pg_advisory_xact_lock($1)'), statements.slice(0, 5).join('\n'));
    const again = recorded(database.db);
    assert.deepEqual(await migrate(again.db), []);
    assert.deepEqual(again.statements, ['select version from schema_migrations']);
  } finally {
    await database.drop();
  }
});
