/** The backup module as the composition root uses it: online copies of the embedded database. */
import { createBackupService } from './backup.service.ts';

export function createBackupModule(deps: Parameters<typeof createBackupService>[0]) {
  return { service: createBackupService(deps) };
}

export type BackupModule = ReturnType<typeof createBackupModule>;
