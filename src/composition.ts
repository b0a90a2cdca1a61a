/**
 * The composition root: wires repositories, services and adapters. `main`, the CLI, benchmarks
 * and the test helper all build the service through here.
 */
import { Redis } from 'ioredis';
import type { Db } from './db/database.ts';
import type { Clock } from './shared/clock.ts';
import { createCompaniesRepository } from './companies/companies.repository.ts';
import { createCompaniesService } from './companies/companies.service.ts';
import { createAccessTokens } from './auth/access-token.ts';
import { createCredentialStatusCache } from './auth/credential-status-cache.ts';
import { createAuthService } from './auth/auth.service.ts';
import { createLocalRevocationBus, createRedisRevocationBus, type RevocationBus } from './auth/revocation-bus.ts';
import { createMemoryRateLimiter, createRedisRateLimiter, failOpen, type RateLimiter } from './http/rate-limiter.ts';
import type { Config } from './config/config.ts';
import { createCatalogsRepository } from './catalogs/catalogs.repository.ts';
import { createCatalogStore, type CatalogStore } from './catalogs/catalog-store.ts';
import { createFieldEncryption } from './shared/field-encryption.ts';
import { createLeadSealer } from './leads/lead-record.ts';
import { createLeadsRepository } from './leads/leads.repository.ts';
import { createLeadsService } from './leads/leads.service.ts';
import { createLeadQueries } from './leads/lead-queries.ts';
import { hkdfSync } from 'node:crypto';
import pino from 'pino';
import type { EmailMessage, SmsMessage } from './providers/ports.ts';
import type { ProviderLogger } from './providers/logger-port.ts';
import { createProviders } from './providers/providers.ts';
import { createSandboxBureau } from './bureau/sandbox-bureau.ts';
import { loadPrequalificationConfig, type PrequalificationConfig } from './prequalification/rules-config.ts';
import { createPrequalificationService } from './prequalification/prequalification.service.ts';
import { createVerificationRepository } from './verification/verification.repository.ts';
import { createVerificationService } from './verification/verification.service.ts';
import { createDeliveryWorker, createUrlPolicy, createWebhookSender, createWebhooksRepository, createWebhooksService, type Resolver } from './webhooks/index.ts';
import { createWebhookMetrics } from './webhooks/webhook-metrics.ts';

export interface ContainerOptions {
  config: Config;
  db: Db;
  clock: Clock;
  signingKey: Buffer;
  encryptionKey: Buffer;
  /** Where to report background failures (Redis down…). */
  warn: (message: string, error?: unknown) => void;
  /** A catalog store already loaded (tests share one per process); a fresh one otherwise. */
  catalogStore?: CatalogStore;
  /** Where adapters log (ids and kinds only); silent when absent. */
  logger?: ProviderLogger;
  /** The log providers also hand each message here (the sandbox outbox; tests read PINs here). */
  messageSinks?: { sms?: (message: SmsMessage) => void; email?: (message: EmailMessage) => void };
  prequalificationConfig?: PrequalificationConfig;
  /** Circuit breaker of every provider: consecutive failures to open it, and how long it stays open. */
  circuit?: { failureThreshold?: number; openMs?: number };
  /** How webhook hostnames are resolved (tests point a name at 127.0.0.1). */
  webhookResolver?: Resolver;
}

// Short enough that a revocation reaches instances without Redis within a second.
const credentialStatusTtlMs = 1000;
const catalogRefreshMs = 5000;

export async function createContainer(options: ContainerOptions) {
  const { config, db, clock } = options;
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true }) : undefined;
  if (redis) {
    redis.on('error', (error) => options.warn('redis error', error));
    await redis.connect();
  }
  const prefix = `autofin:${config.environment}`;
  const limiter: RateLimiter = redis
    ? failOpen(createRedisRateLimiter(redis, prefix), (e) => options.warn('rate limiter unavailable', e))
    : createMemoryRateLimiter();

  const companiesRepository = createCompaniesRepository(db);
  const statusCache = createCredentialStatusCache(credentialStatusTtlMs);
  const onRevoked = (key: string) => statusCache.invalidate(key);
  const revocations: RevocationBus = redis
    ? await createRedisRevocationBus(redis, config.environment, onRevoked)
    : createLocalRevocationBus(onRevoked);

  const auth = createAuthService({
    repository: companiesRepository,
    tokens: createAccessTokens(options.signingKey, config.environment),
    statusCache,
    clock,
    tokenTtlSeconds: config.tokenTtlSeconds,
  });
  const companies = createCompaniesService({
    db,
    repository: companiesRepository,
    clock,
    onCredentialRevoked: (key) => revocations.publish(key),
  });

  const catalogsRepository = createCatalogsRepository(db, clock);
  const catalogStore = options.catalogStore ?? createCatalogStore();
  let catalogRefresh: NodeJS.Timeout | undefined;

  const leadsRepository = createLeadsRepository(db);
  const encryption = createFieldEncryption(options.encryptionKey);
  const sealer = createLeadSealer(encryption);
  const verificationRepository = createVerificationRepository(db);
  const prequalification = createPrequalificationService({
    db,
    leads: leadsRepository,
    reports: verificationRepository,
    sealer,
    encryption,
    config: options.prequalificationConfig ?? loadPrequalificationConfig(),
    clock,
  });
  const providers = createProviders(config, {
    logger: options.logger ?? pino({ level: 'silent' }),
    sandboxBureau: createSandboxBureau(clock),
    clock,
    smsSink: options.messageSinks?.sms,
    emailSink: options.messageSinks?.email,
    circuit: options.circuit,
  });
  const verification = createVerificationService({
    db,
    leads: leadsRepository,
    verification: verificationRepository,
    sealer,
    encryption,
    prequalification,
    providers,
    // A key of its own for PIN hashes, derived so no extra secret has to be configured.
    pinKey: Buffer.from(hkdfSync('sha256', options.encryptionKey, 'autofin', 'pin-hash', 32)),
    clock,
    bureauLeaseMs: config.providerTimeoutMs * 2,
  });
  const leads = createLeadsService({
    db,
    leads: leadsRepository,
    companies: companiesRepository,
    sealer,
    catalogs: catalogStore.lookup,
    clock,
    onVerifiedLeadChanged: (actor, leadId) => prequalification.reevaluate(actor, leadId),
    fingerprintKey: Buffer.from(hkdfSync('sha256', options.encryptionKey, 'autofin', 'fingerprints', 32)),
  });
  const leadQueries = createLeadQueries({ leads: leadsRepository, sealer });
  const webhooks = createWebhooks(options, encryption);

  return {
    config,
    db,
    clock,
    limiter,
    auth,
    companies,
    /** Work before serving: importing the shipped catalogs into a fresh database, loading them. */
    async prepare() {
      if (!catalogStore.isLoaded()) await catalogStore.importShippedIfEmpty(catalogsRepository);
      // Another instance may import a catalog: pick it up within a few seconds.
      catalogRefresh = setInterval(() => {
        catalogStore.refreshIfChanged(catalogsRepository).catch((e) => options.warn('catalog refresh failed', e));
      }, catalogRefreshMs);
      catalogRefresh.unref();
    },
    catalogs: { store: catalogStore, repository: catalogsRepository },
    leads,
    leadQueries,
    leadsRepository,
    sealer,
    verification,
    providers,
    webhooks,
    async close() {
      clearInterval(catalogRefresh);
      await webhooks.worker.stop();
      await webhooks.sender.close();
      await providers.close();
      await revocations.close();
      redis?.disconnect();
    },
  };
}

/** Webhook endpoints, the delivery worker (started by the process, not here) and their metrics. */
function createWebhooks(options: ContainerOptions, encryption: ReturnType<typeof createFieldEncryption>) {
  const { config, db, clock } = options;
  const repository = createWebhooksRepository(db);
  const policy = createUrlPolicy({ production: config.environment === 'production', resolve: options.webhookResolver });
  const sender = createWebhookSender({ policy, timeoutMs: config.webhookTimeoutMs });
  const metrics = createWebhookMetrics({ repository, clock });
  const worker = createDeliveryWorker({
    repository, sender, encryption, clock, timeoutMs: config.webhookTimeoutMs, onAttempt: metrics.onAttempt,
    warn: options.warn,
  });
  const service = createWebhooksService({ repository, encryption, policy, clock, kick: () => worker.kick() });
  return { repository, policy, sender, metrics, worker, service };
}

export type Container = Awaited<ReturnType<typeof createContainer>>;
