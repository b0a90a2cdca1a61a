/** The audit module as the composition root uses it: the audit trail's service and its admin route. */
import type { Queryable } from '../db/index.ts';
import { adminRoutesOf, type AdminAccess, type ModuleRoutes } from '../http/index.ts';
import type { Clock } from '../shared/index.ts';
import { createAuditRepository } from './audit.repository.ts';
import { auditRoutes } from './audit.routes.ts';
import { createAuditService } from './audit.service.ts';

export function createAuditModule(deps: { db: Queryable; clock: Clock; access: AdminAccess }) {
  const service = createAuditService({ repository: createAuditRepository(deps.db), clock: deps.clock });
  const routes: ModuleRoutes = {
    admin: adminRoutesOf(deps.access, (guard) => [auditRoutes({ audit: service, ...guard })]),
  };
  return { service, routes };
}

export type AuditModule = ReturnType<typeof createAuditModule>;
