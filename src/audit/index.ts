/** What other modules use of the audit module. */

export type { AuditOrigin, AuditService } from './audit.service.ts';
export { createAuditModule } from './audit.module.ts';
