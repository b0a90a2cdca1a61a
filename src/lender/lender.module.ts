/**
 * The lender module as the composition root uses it: the lender's reads and exports of leads, the
 * erasure of a lead's personal data, the retention purge that erases it when due, and their admin routes.
 */
import type { LeadLifecycle } from '../leads/index.ts';
import type { Db } from '../db/index.ts';
import { adminRoutesOf, type AdminAccess, type ModuleRoutes } from '../http/index.ts';
import { repeatingJob } from '../jobs/index.ts';
import { lenderLeadsRoutes } from './lender-leads.routes.ts';
import { createLenderLeadsService } from './lender-leads.service.ts';
import { createPersonalDataErasure } from './personal-data-erasure.ts';
import { createLegalHolds } from './legal-hold.ts';
import type { RetentionPolicy } from './retention.ts';

type LeadsDeps = Parameters<typeof createLenderLeadsService>[0];
type ErasureDeps = Parameters<typeof createPersonalDataErasure>[0];

export interface LenderModuleDeps {
  db: Db;
  clock: ErasureDeps['clock'];
  /** The leads module's reads, lifecycle and sealer. */
  leads: {
    queries: LeadsDeps['queries'] & ErasureDeps['queries'];
    lifecycle: LeadsDeps['leads'] & ErasureDeps['leads'] & Pick<LeadLifecycle, 'setLegalHold' | 'releaseLegalHold'>;
    sealer: LeadsDeps['sealer'];
  };
  reports: LeadsDeps['reports'] & ErasureDeps['reports'];
  consents: LeadsDeps['consents'];
  audit: LeadsDeps['audit'] & ErasureDeps['audit'];
  outcomes: LeadsDeps['outcomes'] & ErasureDeps['outcomes'];
  pins: ErasureDeps['pins'];
  documents: ErasureDeps['documents'] & LeadsDeps['documents'];
  leadKeys: ErasureDeps['leadKeys'];
  sandbox?: ErasureDeps['sandbox'];
  /** How long personal data is kept (PII_RETENTION_DAYS, CREDIT_RETENTION_YEARS). */
  retention: RetentionPolicy;
  /** The pre-qualification rules in force (the leads module's). */
  rules: LeadsDeps['rules'];
  /** When the retention purge runs. */
  purgeSchedule: { firstMs: number; everyMs: number };
  warn: (message: string, error?: unknown) => void;
  access: AdminAccess;
}

export function createLenderModule(deps: LenderModuleDeps) {
  const { db, leads, reports, audit, outcomes } = deps;
  const erasure = createPersonalDataErasure({
    db,
    queries: leads.queries,
    leads: leads.lifecycle,
    pins: deps.pins,
    documents: deps.documents,
    leadKeys: deps.leadKeys,
    reports,
    sandbox: deps.sandbox,
    outcomes,
    audit,
    clock: deps.clock,
    retention: deps.retention,
  });
  const lenderLeads = createLenderLeadsService({
    db,
    queries: leads.queries,
    leads: leads.lifecycle,
    reports,
    consents: deps.consents,
    audit,
    sealer: leads.sealer,
    outcomes,
    documents: deps.documents,
    retentionOf: erasure.retentionOf,
    rules: deps.rules,
  });
  const holds = createLegalHolds({ leads: leads.lifecycle, queries: leads.queries, audit, clock: deps.clock });
  // The retention purge runs on every instance (erasing twice changes nothing).
  const purge = repeatingJob('retention purge', deps.purgeSchedule, () =>
    erasure.purge({ dryRun: false }).catch((e) => deps.warn('retention purge failed', e)),
  );
  const routes: ModuleRoutes = {
    admin: adminRoutesOf(deps.access, (guard) => [lenderLeadsRoutes({ leads: lenderLeads, erasure, holds, ...guard })]),
  };
  return { leads: lenderLeads, erasure, jobs: [purge], routes };
}

export type LenderModule = ReturnType<typeof createLenderModule>;
