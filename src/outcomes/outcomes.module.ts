/**
 * The outcomes module as the composition root uses it: the lender's decisions on leads, the
 * funnel report, and the columns it encrypts.
 */
import type { Db } from '../db/index.ts';
import { createFunnelRepository } from './funnel.repository.ts';
import { createFunnelService } from './funnel.service.ts';
import { createOutcomesRepository, type OutboxWriter } from './outcomes.repository.ts';
import { createOutcomesService, outcomeEncryptedColumns } from './outcomes.service.ts';

type ServiceDeps = Parameters<typeof createOutcomesService>[0];

export interface OutcomesModuleDeps extends Omit<ServiceDeps, 'db' | 'repository'> {
  db: Db;
  /** The webhooks module's outbox: an outcome's event joins its own statement. */
  outbox: OutboxWriter;
  /** The lead statuses the funnel counts as verified (the leads module's). */
  verifiedStatuses: readonly string[];
  /** The lead lists' own reading of a date filter (the leads module's). */
  parseDate: Parameters<typeof createFunnelService>[0]['parseDate'];
}

export function createOutcomesModule(deps: OutcomesModuleDeps) {
  const { db, outbox, verifiedStatuses, parseDate, ...rest } = deps;
  // The lender's decisions (docs/lender-api.md, "Outcomes"): the lead is locked and named through the leads module.
  const service = createOutcomesService({ ...rest, db, repository: createOutcomesRepository(db, outbox) });
  const funnel = createFunnelService({ repository: createFunnelRepository(db, verifiedStatuses), parseDate });
  return { service, funnel, encryptedColumns: outcomeEncryptedColumns };
}

export type OutcomesModule = ReturnType<typeof createOutcomesModule>;
