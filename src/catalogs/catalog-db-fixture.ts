/**
 * For the catalog tests: the catalog tables alone, as migrations 002, 014, 020 and 021 make them, on an
 * embedded database in memory (faster than migrating a whole database per test).
 */
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { type Db, pgliteDb } from '../db/index.ts';
import { projectFile } from '../shared/index.ts';

export const catalogMigration = (file: string): string =>
  readFileSync(projectFile(`src/db/migrations/${file}`), 'utf8');

/** `snapshots: false` leaves migrations 014, 020 and 021 out, for the engine to be given them later. */
export async function catalogDb({ snapshots = true } = {}): Promise<{ db: Db; engine: PGlite }> {
  const engine = new PGlite();
  await engine.exec(catalogMigration('002_catalogs.sql'));
  if (snapshots) {
    await engine.exec(catalogMigration('014_catalog_snapshots.sql'));
    await engine.exec(catalogMigration('020_catalog_snapshot_lines.sql'));
    await engine.exec(catalogMigration('021_catalog_packed.sql'));
  }
  return { db: pgliteDb(engine), engine };
}
