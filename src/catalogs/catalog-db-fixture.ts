/**
 * For the catalog tests: the catalog tables alone, as migrations 002 and 014 make them, on an
 * embedded database in memory (faster than migrating a whole database per test).
 */
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { type Db, pgliteDb } from '../db/index.ts';
import { projectFile } from '../shared/index.ts';

export const catalogMigration = (file: string): string =>
  readFileSync(projectFile(`src/db/migrations/${file}`), 'utf8');

/** `snapshots: false` leaves migration 014 out, for the engine to be given it later. */
export async function catalogDb({ snapshots = true } = {}): Promise<{ db: Db; engine: PGlite }> {
  const engine = new PGlite();
  await engine.exec(catalogMigration('002_catalogs.sql'));
  if (snapshots) await engine.exec(catalogMigration('014_catalog_snapshots.sql'));
  return { db: pgliteDb(engine), engine };
}
