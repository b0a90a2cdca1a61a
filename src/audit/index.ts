/** What other modules use of the audit module. */
export { auditRoutes } from './audit.routes.ts';
export type { AuditOrigin, AuditService } from './audit.service.ts';
export { createAuditModule } from './audit.module.ts';
