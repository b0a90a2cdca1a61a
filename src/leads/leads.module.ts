/**
 * The leads module as the composition root uses it: the partner's lead service, the lifecycle the
 * other modules move leads through, the reads for the partner and the lender, the lead locked for
 * an outcome, and the columns it encrypts.
 */
import type { KeyObject } from 'node:crypto';
import type { Bureau } from '../bureau/index.ts';
import type { CatalogLookup } from '../catalogs/index.ts';
import type { CompanyLookups } from '../companies/index.ts';
import type { Db, Queryable } from '../db/index.ts';
import { apiPrefix, type ModuleRoutes } from '../http/index.ts';
import {
  evaluatePrequalification,
  loadPrequalificationConfig,
  type PrequalificationConfig,
} from '../prequalification/index.ts';
import { newId, type Clock } from '../shared/index.ts';
import type { LeadSealing } from '../lead-keys/index.ts';
import { createLeadLifecycle } from './lead-lifecycle.ts';
import { createLeadQueries } from './lead-queries.ts';
import { createLeadSealer, leadEncryptedColumns } from './lead-record.ts';
import { isVerified } from '../lead-status/index.ts';
import { createLeadsRepository } from './leads.repository.ts';
import { leadsRoutes } from './leads.routes.ts';
import { createLeadsService } from './leads.service.ts';
import { createLenderLeadQueries } from './lender-lead-queries.ts';

export interface LeadsModuleDeps {
  db: Db;
  clock: Clock;
  /** The leads' own keys, which seal their personal values (src/lead-keys). */
  sealing: LeadSealing;
  /** Keys of the phone and request fingerprints, current first. */
  fingerprintKeys: readonly KeyObject[];
  reports: Pick<Bureau, 'reportOf'>;
  companies: Pick<CompanyLookups, 'findAffiliate'>;
  catalogs: CatalogLookup;
  /** The rules' thresholds; the shipped ones when absent. */
  prequalificationConfig?: PrequalificationConfig;
}

export function createLeadsModule(deps: LeadsModuleDeps) {
  const { db, clock } = deps;
  const repository = createLeadsRepository(db);
  const sealer = createLeadSealer(deps.sealing);
  const prequalificationConfig = deps.prequalificationConfig ?? loadPrequalificationConfig();
  // Reads, moves and erasure of leads for the other modules; pre-qualification applied with the pure evaluator.
  const lifecycle = createLeadLifecycle({
    db,
    repository,
    sealer,
    reports: deps.reports,
    prequalify: (input, now) => evaluatePrequalification(input, prequalificationConfig, now),
    clock,
  });
  const service = createLeadsService({
    db,
    leads: repository,
    companies: deps.companies,
    sealer,
    catalogs: deps.catalogs,
    clock,
    lifecycle,
    fingerprintKeys: deps.fingerprintKeys,
  });
  return {
    service,
    lifecycle,
    sealer,
    /** The lender's reads and exports of leads. */
    lenderQueries: createLenderLeadQueries(db),
    /**
     * The partner's reads of its leads, with the lender's decision as the partner sees it (the outcomes
     * module's, which is built on this one's `outcomeLeads`), and the partner's lead routes over them.
     */
    withOutcomes(outcomes: Parameters<typeof createLeadQueries>[0]['outcomes']) {
      const queries = createLeadQueries({ leads: repository, sealer, outcomes });
      const routes: ModuleRoutes = {
        partner: [leadsRoutes({ leads: service, queries, prefix: apiPrefix, catalogs: deps.catalogs, clock })],
      };
      return { queries, routes };
    },
    /** The company of a lead (undefined: no such lead), for the documents module's reads. */
    companyOf: (leadId: string) => repository.companyOf(leadId),
    /** The lead an outcome is recorded on, locked and named for the outcomes module. */
    outcomeLeads: {
      async lockForOutcome(leadId: string, tx: Queryable) {
        const row = await repository.lockById(leadId, tx);
        return (
          row && {
            id: row.id,
            companyId: row.company_id,
            externalAutoId: row.external_auto_id,
            status: row.status,
            verified: isVerified(row.status),
            erased: row.erased_at != null,
          }
        );
      },
      /** The decision moves the lead's `updatedAt` and is in its history (`OUTCOME_CHANGED`, by the lender). */
      outcomeChanged: (leadId: string, at: Date, tx: Queryable) =>
        repository.touch(
          leadId,
          at,
          { id: newId(), type: 'OUTCOME_CHANGED', actor: 'lender', fields: ['outcome'] },
          tx,
        ),
    },
    encryptedColumns: leadEncryptedColumns(deps.sealing),
    /** The pre-qualification rules the leads are judged by, for the lender's explanation of a decision. */
    rules: prequalificationConfig,
  };
}

export type LeadsModule = ReturnType<typeof createLeadsModule>;
