/** The backup module as the composition root uses it: online copies of the embedded database, and their route. */
import type { AuditService } from '../audit/index.ts';
import { adminRoutesOf, type AdminAccess, type ModuleRoutes } from '../http/index.ts';
import { backupRoutes } from './backup.routes.ts';
import { createBackupService } from './backup.service.ts';

export type BackupModuleDeps = Parameters<typeof createBackupService>[0] & {
  access: AdminAccess;
  /** Each backup taken is audited (action `backup`). */
  audit: Pick<AuditService, 'record'>;
};

export function createBackupModule(deps: BackupModuleDeps) {
  const service = createBackupService(deps);
  const routes: ModuleRoutes = {
    admin: adminRoutesOf(deps.access, (guard) => [backupRoutes({ backup: service, audit: deps.audit, ...guard })]),
  };
  return { service, routes };
}

export type BackupModule = ReturnType<typeof createBackupModule>;
