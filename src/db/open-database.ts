/** Opens the configured engine: PostgreSQL with DATABASE_URL, else PGlite under DATA_DIR (locked). */
import { join } from 'node:path';
import type { Db } from './database.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { openPgliteDb } from './pglite-db.ts';
import { openPostgresDb } from './postgres-db.ts';

export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<Db> {
  if (options.databaseUrl) return openPostgresDb(options.databaseUrl);
  const lock = lockDataDir(options.dataDir);
  try {
    const db = await openPgliteDb(join(options.dataDir, 'pgdata'));
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
