/** Opens the configured engine: PostgreSQL with DATABASE_URL, else PGlite under DATA_DIR (locked). */
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectFile } from '../shared/index.ts';
import type { Db } from './database.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { openPgliteDb } from './pglite-db.ts';
import { openPostgresDb } from './postgres-db.ts';

export interface OpenOptions {
  databaseUrl?: string;
  dataDir: string;
  /**
   * A prepared embedded database (src/embedded-template.ts): when DATA_DIR holds none yet, its files are
   * copied there instead of creating a database in WebAssembly.
   */
  template?: string;
}

export async function openDatabase(options: OpenOptions): Promise<Db> {
  if (options.databaseUrl) return openPostgresDb(options.databaseUrl);
  const lock = lockDataDir(options.dataDir);
  try {
    const directory = join(options.dataDir, 'pgdata');
    if (options.template && !existsSync(directory)) copyTemplate(options.template, directory);
    const db = await openPgliteDb(directory);
    return {
      ...db,
      async close() {
        try {
          await db.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** The embedded database scripts/build.mjs prepares in dist/ (src/embedded-template.ts), when there is one. */
export function preparedEmbeddedDatabase(): string | undefined {
  const folder = fileURLToPath(projectFile('dist/embedded-database/pgdata'));
  return existsSync(folder) ? folder : undefined;
}

/** Copied beside the target and renamed once whole: a start stopped halfway leaves no half database. */
function copyTemplate(template: string, directory: string): void {
  const partial = `${directory}.partial`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(template, partial, { recursive: true });
  renameSync(partial, directory);
}
