/**
 * The companies module as the composition root uses it: the companies service, and the lookups of
 * a company by affiliate and of a credential by consumer key that leads and auth read.
 */
import type { Db } from '../db/index.ts';
import type { Clock } from '../shared/index.ts';
import { createCompaniesRepository } from './companies.repository.ts';
import { createCompaniesService } from './companies.service.ts';

export interface CompaniesModuleDeps {
  db: Db;
  clock: Clock;
  /** Told of each revoked credential (auth invalidates it on every instance). */
  onCredentialRevoked: (consumerKey: string) => void | Promise<void>;
}

export function createCompaniesModule(deps: CompaniesModuleDeps) {
  const repository = createCompaniesRepository(deps.db);
  const service = createCompaniesService({
    db: deps.db,
    repository,
    clock: deps.clock,
    onCredentialRevoked: deps.onCredentialRevoked,
  });
  return {
    service,
    lookups: { findAffiliate: repository.findAffiliate, findCredential: repository.findCredential },
  };
}

export type CompaniesModule = ReturnType<typeof createCompaniesModule>;
/** The reads of companies and credentials other modules make. */
export type CompanyLookups = CompaniesModule['lookups'];
