/**
 * For the catalog tests: the catalog tables alone, as migrations 002, 014, 020 and 021 make them, on an
 * embedded database in memory (faster than migrating a whole database per test). A closed database goes
 * back to a pool and is emptied when taken again: a new PGlite in memory costs seconds, a new schema
 * milliseconds.
 */
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { type Db, pgliteDb } from '../db/index.ts';
import { projectFile } from '../shared/index.ts';

export const catalogMigration = (file: string): string =>
  readFileSync(projectFile(`src/db/migrations/${file}`), 'utf8');

const idle: PGlite[] = [];

/** `snapshots: false` leaves migrations 014, 020 and 021 out, for the engine to be given them later. */
export async function catalogDb({ snapshots = true } = {}): Promise<{ db: Db; engine: PGlite }> {
  const engine = idle.pop() ?? new PGlite();
  await engine.exec('drop schema if exists public cascade; create schema public;');
  await engine.exec(catalogMigration('002_catalogs.sql'));
  if (snapshots) {
    await engine.exec(catalogMigration('014_catalog_snapshots.sql'));
    await engine.exec(catalogMigration('020_catalog_snapshot_lines.sql'));
    await engine.exec(catalogMigration('021_catalog_packed.sql'));
  }
  let returned = false;
  const db: Db = {
    ...pgliteDb(engine),
    async close() {
      if (returned) return;
      returned = true;
      idle.push(engine);
    },
  };
  return { db, engine };
}
