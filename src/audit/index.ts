/** What other modules use of the audit module. */
export { createAuditRepository } from './audit.repository.ts';
export { auditRoutes } from './audit.routes.ts';
export { createAuditService, type AuditOrigin, type AuditService } from './audit.service.ts';
