/** What other modules use of the audit module. */
export { auditOriginOf, type AuditOrigin, type AuditService } from './audit.service.ts';
export { createAuditModule } from './audit.module.ts';
export { type AuditAction } from './audit.repository.ts';
