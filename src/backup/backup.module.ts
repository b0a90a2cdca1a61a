/** The backup module as the composition root uses it: online copies of the embedded database, and their route. */
import { adminRoutesOf, type AdminAccess, type ModuleRoutes } from '../http/index.ts';
import { backupRoutes } from './backup.routes.ts';
import { createBackupService } from './backup.service.ts';

export function createBackupModule(deps: Parameters<typeof createBackupService>[0] & { access: AdminAccess }) {
  const service = createBackupService(deps);
  const routes: ModuleRoutes = {
    admin: adminRoutesOf(deps.access, (guard) => [backupRoutes({ backup: service, ...guard })]),
  };
  return { service, routes };
}

export type BackupModule = ReturnType<typeof createBackupModule>;
