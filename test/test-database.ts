/**
 * A database of its own for every test file, on the engine the run asks for: PGlite loaded from a
 * migrated template with the shipped catalogs (fast), or a fresh schema on PostgreSQL
 * (`DATABASE_URL`) whose catalog tables are copied from a template schema.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import type { Db } from '../src/db/database.ts';
import { migrate, readMigrations } from '../src/db/migrate.ts';
import { createPglite, pgliteDb } from '../src/db/pglite-db.ts';
import { openPostgresDb } from '../src/db/postgres-db.ts';
import { createCatalogsModule } from '../src/catalogs/index.ts';
import { systemClock } from '../src/shared/index.ts';

const templateDir = new URL('../.test-template/', import.meta.url);
const catalogTables = ['catalog_vehicle', 'catalog_zip_settlement', 'catalog_meta'];

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
  /** PostgreSQL only: the file's schema (for a second pool, as a second instance would open). */
  schema?: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const template = await ensurePgliteTemplate();
    const pglite = await createPglite(undefined, new Blob([readFileSync(template)]));
    const db = pgliteDb(pglite);
    return { db, engine: 'pglite', drop: () => db.close() };
  }
  const template = await ensurePostgresTemplate(url);
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = await openPostgresDb(url, { schema, max: 10 });
  await migrate(db);
  for (const table of catalogTables) {
    await db.query(`insert into ${schema}.${table} select * from ${template}.${table}`);
  }
  return {
    db,
    engine: 'postgres',
    schema,
    async drop() {
      await db.close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    },
  };
}
