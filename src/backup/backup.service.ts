/**
 * Online backups of the embedded database: one consistent copy of the live database, taken while the
 * service serves (docs/operations.md, "Backups"). PostgreSQL is backed up by its own tools instead.
 */
import { errors } from '../http/index.ts';
import type { Db } from '../db/index.ts';
import type { Clock } from '../shared/index.ts';

export interface Backup {
  /** The copy: a gzip'd tar of the embedded database's folder, what `autofin restore` loads. */
  data: Blob;
  fileName: string;
}

export function createBackupService(deps: {
  db: Pick<Db, 'engine' | 'dumpDataDir'>;
  clock: Clock;
  /** Runs the rewrite of erased leads' keys that erasures asked for (src/lead-keys), so no copy holds one. */
  shredErasedKeys: () => Promise<void>;
}) {
  return {
    /** Throws backupNotEmbedded (409 / 4095) on PostgreSQL. */
    async take(): Promise<Backup> {
      if (!deps.db.dumpDataDir) throw errors.backupNotEmbedded();
      await deps.shredErasedKeys();
      const data = await deps.db.dumpDataDir();
      const stamp = deps.clock.now().toISOString().replace(/[:.]/g, '-');
      return { data, fileName: `autofin-backup-${stamp}.tar.gz` };
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;
