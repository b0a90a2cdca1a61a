/** The audit module as the composition root uses it: the audit trail's service. */
import type { Queryable } from '../db/index.ts';
import type { Clock } from '../shared/index.ts';
import { createAuditRepository } from './audit.repository.ts';
import { createAuditService } from './audit.service.ts';

export function createAuditModule(deps: { db: Queryable; clock: Clock }) {
  return { service: createAuditService({ repository: createAuditRepository(deps.db), clock: deps.clock }) };
}

export type AuditModule = ReturnType<typeof createAuditModule>;
