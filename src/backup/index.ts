/** Backups of the embedded database (docs/operations.md, "Backups"). */

export { createBackupModule } from './backup.module.ts';
