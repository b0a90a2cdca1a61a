/** Backups of the embedded database (docs/operations.md, "Backups"). */

export { backupRoutes } from './backup.routes.ts';
export { createBackupModule } from './backup.module.ts';
