/** Backups of the embedded database (docs/operations.md, "Backups"). */
export { createBackupService, type Backup, type BackupService } from './backup.service.ts';
export { backupRoutes } from './backup.routes.ts';
export { createBackupModule, type BackupModule } from './backup.module.ts';
