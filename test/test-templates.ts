/**
 * The template databases every test database starts from (test/test-database.ts): migrated, with the
 * shipped catalogs. Built once per change of the migrations or the catalogs, before the test files start
 * (scripts/prepare-test-databases.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import type { Db } from '../src/db/database.ts';
import { migrate, readMigrations } from '../src/db/migrate.ts';
import { createPglite, pgliteDb } from '../src/db/pglite-db.ts';
import { openPostgresDb } from '../src/db/postgres-db.ts';
import { createCatalogsModule } from '../src/catalogs/index.ts';
import { systemClock } from '../src/shared/index.ts';

const templateDir = new URL('../.test-template/', import.meta.url);

/**
 * Schemas made by one run of the test command start with this prefix (scripts/run-tests.mjs sets it and
 * drops them when the run ends); a file run on its own gets a prefix of its own.
 */
const runPrefix = `t_${process.env.AUTOFIN_TEST_RUN ?? randomBytes(4).toString('hex')}_`;

async function templateKey(): Promise<string> {
  const hash = createHash('sha256');
  for (const m of await readMigrations()) hash.update(m.name).update(m.sql);
  for (const f of ['mx-vehicles.csv.gz', 'mx-zip-codes.csv.gz']) {
    hash.update(readFileSync(new URL(`../catalog-data/${f}`, import.meta.url)));
  }
  return hash.digest('hex').slice(0, 12);
}

/** As src/embedded-template.ts prepares the service's embedded database: migrated, the shipped catalogs in. */
async function migrateWithCatalogs(db: Db): Promise<void> {
  await migrate(db);
  await createCatalogsModule({
    db,
    clock: systemClock,
    warn: (message, error) => console.warn(message, error),
  }).prepare();
}

/** Builds the PGlite template once (the test runner calls this before the files start). */
export async function ensurePgliteTemplate(): Promise<URL> {
  const file = new URL(`pglite-${await templateKey()}.tar.gz`, templateDir);
  if (existsSync(file)) return file;
  mkdirSync(templateDir, { recursive: true });
  const pglite = await createPglite();
  await migrateWithCatalogs(pgliteDb(pglite));
  const dump = await pglite.dumpDataDir('gzip');
  await pglite.close();
  const partial = new URL(`${file.pathname}.${process.pid}`, 'file://');
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  return file;
}

export async function ensurePostgresTemplate(url: string): Promise<string> {
  const schema = `autofin_tpl_${await templateKey()}`;
  const db = await openPostgresDb(url, { schema, max: 2 });
  try {
    await migrateWithCatalogs(db);
  } finally {
    await db.close();
  }
  return schema;
}

export interface TestDatabase {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** PostgreSQL only: the database's schema (for a second pool, as a second instance would open). */
  schema?: string;
  /** Gives the database back: drops a fresh one, releases an own one, leaves the shared one open. */
  drop(): Promise<void>;
}

/** Lists the tables of the database's schema: the catalogs (kept from the template) and the others. */
export async function tablesOf(db: Db): Promise<{ catalogs: string[]; others: string[] }> {
  const { rows } = await db.query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = current_schema() order by tablename`,
  );
  const names = rows.map((r) => r.name);
  return {
    catalogs: names.filter((n) => n.startsWith('catalog_')),
    others: names.filter((n) => !n.startsWith('catalog_') && n !== 'schema_migrations'),
  };
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await admin.end();
  }
}

/**
 * The PGlite template as a plain tar, unpacked once per process: PGlite takes a tar as it is, where a
 * gzipped one is first tried as a tar, then inflated through a web stream, for every database.
 */
let templateTar: ReturnType<typeof gunzipSync> | undefined;

/** A database of its own, new from the template; `drop` closes it and removes what it left. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    templateTar ??= gunzipSync(readFileSync(await ensurePgliteTemplate()));
    const pglite = await createPglite(undefined, new Blob([templateTar]));
    const db = pgliteDb(pglite);
    return { db, engine: 'pglite', drop: () => db.close() };
  }
  const template = await ensurePostgresTemplate(url);
  const schema = `${runPrefix}${randomBytes(4).toString('hex')}`;
  const db = await openPostgresDb(url, { schema, max: 10 });
  await migrate(db);
  for (const table of (await tablesOf(db)).catalogs) {
    await db.query(`insert into ${schema}.${table} select * from ${template}.${table}`);
  }
  return {
    db,
    engine: 'postgres',
    schema,
    async drop() {
      await db.close();
      await dropSchema(url, schema);
    },
  };
}
