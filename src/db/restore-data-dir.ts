/**
 * Restores a backup of the embedded database (`Db.dumpDataDir`, `GET /admin/backup`) into a DATA_DIR that
 * is empty or absent: never over a folder that holds anything, so a restore cannot mix with, or destroy,
 * a database that is there. The folder is locked as a service would lock it while the copy is loaded.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './data-dir-lock.ts';
import { createPglite } from './pglite-db.ts';

export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

export interface RestoreResult {
  dataDir: string;
  /** The newest migration the restored database has applied. */
  schemaVersion: number;
}

/** Throws RestoreRefusedError when `dataDir` holds anything, or when `backup` is not a readable backup. */
export async function restoreDataDir(dataDir: string, backup: Blob): Promise<RestoreResult> {
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) {
    throw new RestoreRefusedError(`${dataDir} is a file, not a folder: choose a new or empty folder for DATA_DIR`);
  }
  const present = existsSync(dataDir) ? readdirSync(dataDir) : [];
  if (present.length > 0) {
    const listed = present.slice(0, 5).join(', ') + (present.length > 5 ? ', …' : '');
    throw new RestoreRefusedError(
      `${dataDir} is not empty (${listed}): a backup is restored only into an empty or new folder; ` +
        'stop the service and choose a new DATA_DIR, or empty this one yourself first',
    );
  }
  const lock = lockDataDir(dataDir);
  let pg: PGlite | undefined;
  try {
    try {
      pg = await createPglite(join(dataDir, 'pgdata'), backup);
      const sql = 'select max(version) as version from schema_migrations';
      const { rows } = await pg.query<{ version: number | null }>(sql);
      return { dataDir, schemaVersion: Number(rows[0]?.version ?? 0) };
    } catch (error) {
      // The folder was empty: leave it so, rather than half a database a later start would open.
      await pg?.close().catch(() => undefined);
      rmSync(join(dataDir, 'pgdata'), { recursive: true, force: true });
      const reason = (error as Error).message;
      throw new RestoreRefusedError(`the file is not a backup of an autofin embedded database (${reason})`);
    }
  } finally {
    if (pg && !pg.closed) await pg.close().catch(() => undefined);
    lock.release();
  }
}
