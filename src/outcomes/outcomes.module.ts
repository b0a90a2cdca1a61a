/**
 * The outcomes module as the composition root uses it: the lender's decisions on leads, the
 * funnel report, the columns it encrypts, and their admin routes.
 */
import type { Db } from '../db/index.ts';
import { adminRoutesOf, type AdminAccess, type ModuleRoutes } from '../http/index.ts';
import { createFunnelRepository } from './funnel.repository.ts';
import { createFunnelService } from './funnel.service.ts';
import { createOutcomesRepository } from './outcomes.repository.ts';
import { outcomesRoutes } from './outcomes.routes.ts';
import { createOutcomesService, outcomeEncryptedColumns } from './outcomes.service.ts';

type ServiceDeps = Parameters<typeof createOutcomesService>[0];

export interface OutcomesModuleDeps extends Omit<ServiceDeps, 'db' | 'repository'> {
  db: Db;
  access: AdminAccess;
}

export function createOutcomesModule(deps: OutcomesModuleDeps) {
  const { db, access, ...rest } = deps;
  // The lender's decisions (docs/lender-api.md, "Outcomes"): the lead is locked and named through the leads module.
  const service = createOutcomesService({ ...rest, db, repository: createOutcomesRepository(db) });
  const funnel = createFunnelService({ repository: createFunnelRepository(db) });
  const routes: ModuleRoutes = {
    admin: adminRoutesOf(access, (guard) => [outcomesRoutes({ outcomes: service, funnel, ...guard })]),
  };
  return { service, funnel, encryptedColumns: outcomeEncryptedColumns, routes };
}

export type OutcomesModule = ReturnType<typeof createOutcomesModule>;
