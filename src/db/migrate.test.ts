import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, emptyTestDatabase } from '../../test/test-database.ts';
import type { Db, Transaction } from './database.ts';
import { migrate, readMigrations } from './migrate.ts';

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

test('an empty database gets every migration under the lock; the next start reads it in one statement', async () => {
  const database = await emptyTestDatabase();
  try {
    const { db, statements } = recorded(database.db);
    const names = (await readMigrations()).map((m) => m.name);
    assert.deepEqual(await migrate(db), names);
    assert.equal(statements[0], 'select version from schema_migrations');
    assert.ok(statements.includes('begin'), statements.slice(0, 5).join('\n'));
    assert.ok(statements.includes('select pg_try_advisory_xact_lock($1) as got'), statements.slice(0, 5).join('\n'));
    const again = recorded(database.db);
    assert.deepEqual(await migrate(again.db), []);
    assert.deepEqual(again.statements, ['select version from schema_migrations']);
  } finally {
    await database.drop();
  }
});

test(
  'a migration waits for a busy table at most its lock timeout at a time, and is tried again until it gets it',
  { skip: !process.env.DATABASE_URL && 'PostgreSQL only: the embedded engine has one connection' },
  async () => {
    const database = await emptyTestDatabase();
    const url = process.env.DATABASE_URL!;
    const holder = new (await import('pg')).default.Client({ connectionString: url });
    await holder.connect();
    try {
      const [create, alter] = [
        { version: 1, name: 'busy', sql: 'create table busy (id integer primary key);' },
        { version: 2, name: 'busy_more', sql: 'alter table busy add column note text;' },
      ];
      await migrate(database.db, { migrations: [create] });
      const { rows } = await database.db.query<{ schema: string }>('select current_schema() as schema');
      // A transaction of another connection reads the table: the ALTER needs it alone.
      await holder.query('begin');
      await holder.query(`lock table ${rows[0].schema}.busy in access share mode`);
      const refused = await migrate(database.db, { migrations: [create, alter], lockTimeoutMs: 100, attempts: 2 }).then(
        () => 'applied',
        (error: { code?: string }) => error.code,
      );
      assert.equal(refused, '55P03', 'two short tries while the table is busy give up, saying why');
      await holder.query('commit');
      await holder.query('begin');
      await holder.query(`lock table ${rows[0].schema}.busy in access share mode`);
      const released = new Promise<void>((resolve) =>
        setTimeout(() => void holder.query('commit').then(() => resolve()), 800),
      );
      const started = performance.now();
      assert.deepEqual(await migrate(database.db, { migrations: [create, alter], lockTimeoutMs: 100, attempts: 10 }), [
        'busy_more',
      ]);
      assert.ok(performance.now() - started >= 700, 'it waited for the lock through its tries');
      await released;
    } finally {
      await holder.end();
      await database.drop();
    }
  },
);

const indexValid = async (db: Db, name: string) =>
  (
    await db.query<{ valid: boolean }>(
      `select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = $1`,
      [name],
    )
  ).rows[0]?.valid;

const concurrentMigration = (version: number, index: string) => ({
  version,
  name: `concurrent_${index}`,
  sql: `-- autofin:no-transaction\ncreate index concurrently if not exists ${index} on leads (updated_at);\n`,
});

test('a no-transaction migration builds its index outside the transaction (as usual when embedded)', async () => {
  const database = await emptyTestDatabase();
  try {
    const base = await readMigrations();
    await migrate(database.db, { migrations: base });
    const migrations = [
      ...base,
      concurrentMigration(900, 'leads_lint_a_idx'),
      { ...base[0]!, version: 901, name: 'after' },
    ];
    migrations[migrations.length - 1]!.sql = 'create table if not exists after_concurrent (id integer primary key);';
    // PostgreSQL refuses `create index concurrently` in a transaction (25001): applied means it ran outside.
    assert.deepEqual(await migrate(database.db, { migrations }), ['concurrent_leads_lint_a_idx', 'after']);
    assert.equal(await indexValid(database.db, 'leads_lint_a_idx'), true);
    assert.deepEqual(await migrate(database.db, { migrations }), [], 'applied once');
  } finally {
    await database.drop();
  }
});

test(
  'an index a failed concurrent build left invalid is dropped and built again',
  { skip: !process.env.DATABASE_URL && 'PostgreSQL only: the embedded engine builds indexes in the transaction' },
  async () => {
    const database = await emptyTestDatabase();
    try {
      const base = await readMigrations();
      await migrate(database.db, { migrations: base });
      // What a build stopped half-way leaves: the index, marked invalid (never used, always maintained).
      await database.db.query('create index leads_lint_b_idx on leads (updated_at)');
      await database.db.query(`update pg_index set indisvalid = false where indexrelid = 'leads_lint_b_idx'::regclass`);
      assert.equal(await indexValid(database.db, 'leads_lint_b_idx'), false);
      await migrate(database.db, { migrations: [...base, concurrentMigration(900, 'leads_lint_b_idx')] });
      assert.equal(await indexValid(database.db, 'leads_lint_b_idx'), true);
    } finally {
      await database.drop();
    }
  },
);

test(
  'migrations started together, one building an index concurrently, all finish (none waits inside a statement)',
  { skip: !process.env.DATABASE_URL && 'PostgreSQL only: the embedded engine has one connection' },
  async () => {
    const databases = await Promise.all([emptyTestDatabase(), emptyTestDatabase(), emptyTestDatabase()]);
    try {
      const names = (await readMigrations()).map((m) => m.name);
      // Each schema's migrations, 025's concurrent builds included, while the others wait for the lock.
      const applied = await Promise.all(databases.map((d) => migrate(d.db)));
      for (const list of applied) assert.deepEqual(list, names);
    } finally {
      await Promise.all(databases.map((d) => d.drop()));
    }
  },
);
