/**
 * The companies module as the composition root uses it: the companies service, and the lookups of
 * a company by affiliate and of a credential by consumer key that leads and auth read, with the news
 * of each credential revoked on any instance (through Redis when there is one).
 */
import type { Db } from '../db/index.ts';
import type { Clock } from '../shared/index.ts';
import { createCompaniesRepository } from './companies.repository.ts';
import { createCompaniesService } from './companies.service.ts';
import { createLocalRevocationBus, createRedisRevocationBus } from './revocation-bus.ts';

export interface CompaniesModuleDeps {
  db: Db;
  clock: Clock;
  environment: string;
  /** With REDIS_URL: the client revocations travel through, and where its failures go. */
  redis?: {
    client: Parameters<typeof createRedisRevocationBus>[0];
    warn: (message: string, error?: unknown) => void;
  };
}

export function createCompaniesModule(deps: CompaniesModuleDeps) {
  const { redis } = deps;
  const revocations = redis
    ? createRedisRevocationBus(redis.client, deps.environment, redis.warn)
    : createLocalRevocationBus();
  const repository = createCompaniesRepository(deps.db);
  const service = createCompaniesService({
    db: deps.db,
    repository,
    clock: deps.clock,
    onCredentialRevoked: (consumerKey) => revocations.publish(consumerKey),
  });
  return {
    service,
    lookups: {
      findAffiliate: repository.findAffiliate,
      findCredential: repository.findCredential,
      /** Calls `listener` with each credential revoked on any instance (auth forgets its cached status). */
      onRevoked: revocations.subscribe,
    },
    close: () => revocations.close(),
  };
}

export type CompaniesModule = ReturnType<typeof createCompaniesModule>;
/** The reads of companies and credentials other modules make. */
export type CompanyLookups = CompaniesModule['lookups'];
