/**
 * The composition root: builds each module in dependency order and collects what they offer: the
 * services, the route plugins the app registers (routes.ts), the background jobs the process
 * starts and stops (src/jobs), and the encrypted columns key rotation covers. `main`, the CLI,
 * benchmarks and the test helper all build the service through here.
 */
import { hkdfSync } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { createAuditRepository, createAuditService } from './audit/index.ts';
import {
  createAccessTokens,
  createAuthService,
  createCredentialStatusCache,
  createLocalRevocationBus,
  createRedisRevocationBus,
} from './auth/index.ts';
import { createBackupService } from './backup/index.ts';
import { createBureau, reportEncryptedColumns } from './bureau/index.ts';
import { createCatalogsModule, type CatalogStore } from './catalogs/index.ts';
import { createCompaniesRepository, createCompaniesService } from './companies/index.ts';
import type { Config } from './config/index.ts';
import { createConsents } from './consent/index.ts';
import { createConsoleSessions, createConsoleSessionsRepository, createConsoleSignIn } from './console/index.ts';
import { createSealedValues, type Db } from './db/index.ts';
import {
  createMemoryRateLimiter,
  createRedisSharedCounters,
  createSharedRateLimiter,
  type RateLimiter,
} from './http/index.ts';
import { createJobs, repeatingJob, type Job } from './jobs/index.ts';
import { createKeysService } from './keys/index.ts';
import {
  createLeadLifecycle,
  createLeadQueries,
  createLeadSealer,
  createLeadsRepository,
  createLeadsService,
  createLenderLeadQueries,
  isVerified,
  leadEncryptedColumns,
  parseDate,
  verifiedStatuses,
} from './leads/index.ts';
import { createLenderLeadsService, createPersonalDataErasure } from './lender/index.ts';
import { createServiceMetrics } from './operations/index.ts';
import { createOperatorsRepository, createOperatorsService } from './operators/index.ts';
import {
  createFunnelRepository,
  createFunnelService,
  createOutcomesRepository,
  createOutcomesService,
  outcomeEncryptedColumns,
} from './outcomes/index.ts';
import {
  evaluatePrequalification,
  loadPrequalificationConfig,
  type PrequalificationConfig,
} from './prequalification/index.ts';
import {
  createProviders,
  withCallContext,
  type EmailMessage,
  type ProviderLogger,
  type SmsMessage,
} from './providers/index.ts';
import { routesOf } from './routes.ts';
import { createSandboxMessagesRepository, createSandboxService, sandboxEncryptedColumns } from './sandbox/index.ts';
import { createFieldEncryption, rateLimitedWarn, type Clock } from './shared/index.ts';
import type { Tracing } from './tracing/index.ts';
import {
  createVerificationRepository,
  createVerificationService,
  instrumentVerification,
} from './verification/index.ts';
import { createWebhooksModule, outboxCtes, type Resolver } from './webhooks/index.ts';

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
  /** Spans for statements, provider calls and webhook deliveries, when tracing is on (src/tracing). */
  tracing?: Pick<Tracing, 'traceDb' | 'provider' | 'delivery'>;
}

export async function createContainer(givenOptions: ContainerOptions) {
  // With tracing on, every repository gets the traced database (the container's `db` too).
  const options = { ...givenOptions, db: givenOptions.tracing?.traceDb(givenOptions.db) ?? givenOptions.db };
  const { config, db, clock } = options;
  const keys = dataKeys(options);
  const redis = connectRedis(options);
  const limits = createRateLimits(options, redis);
  const partners = createPartnerAccess(options, redis);
  const catalogs = createCatalogsModule({ db, clock, store: options.catalogStore, warn: options.warn });
  const leadWork = createLeadWork(options, keys, partners.repository, catalogs);
  const lenderWork = createLenderWork(options, keys, leadWork, limits.limiter);
  const webhooks = createWebhooksModule({
    config,
    db,
    clock,
    encryption: keys.encryption,
    warn: options.warn,
    resolver: options.webhookResolver,
    tracer: options.tracing?.delivery,
  });
  const services = {
    config,
    db,
    clock,
    ...limits,
    auth: partners.auth,
    companies: partners.companies,
    catalogs: { store: catalogs.store, repository: catalogs.repository },
    ...leadWork.services,
    ...lenderWork.services,
    webhooks,
    /** Key rotation: the stored values' keys, checked before serving, and their re-encryption. */
    keys: createKeysService({
      encryption: keys.encryption,
      signing: partners.tokens,
      values: createSealedValues(
        db,
        [
          ...leadWork.encryptedColumns,
          ...webhooks.encryptedColumns,
          ...sandboxEncryptedColumns,
          ...outcomeEncryptedColumns,
        ],
        keys.encryption,
      ),
    }),
    /** Online copies of the embedded database (`GET /admin/backup`). */
    backup: createBackupService({ db, clock }),
  };
  const jobs = createJobs([...webhooks.jobs, ...catalogs.jobs, ...lenderWork.jobs, ...limits.jobs]);
  return {
    ...services,
    routes: routesOf({ ...services, ping: () => db.ping() }),
    /** The background work: `main` starts it once it serves and stops it before closing. */
    jobs,
    /** Work before serving: the catalogs' import and loading (catalogs.module.ts). */
    prepare: catalogs.prepare,
    /** Stops the jobs, then closes what the modules hold open. */
    async close() {
      await jobs.stop();
      await webhooks.close();
      await Promise.allSettled([leadWork.close(), limits.close(), partners.close()]);
      redis?.client.disconnect();
    },
  };
}

export type Container = Awaited<ReturnType<typeof createContainer>>;

/** The data encryption and the keys derived from it, current first. */
function dataKeys(options: ContainerOptions) {
  const encryption = createFieldEncryption(options.encryptionKey, options.config.dataEncryptionPreviousKeys);
  // Keys derived from the data encryption keys, current first: the first writes, every one still matches
  // what was written before a rotation (PIN hashes, fingerprints of phones and idempotent requests).
  const encryptionKeys = [options.encryptionKey, ...options.config.dataEncryptionPreviousKeys];
  const derived = (purpose: string) =>
    encryptionKeys.map((key) => Buffer.from(hkdfSync('sha256', key, 'autofin', purpose, 32)));
  return { encryption, derived };
}
type DataKeys = ReturnType<typeof dataKeys>;

/**
 * Redis is never waited for: no command is queued while it is away (it fails at once), none waits
 * more than a second, and the client reconnects by itself. The service starts without it.
 */
function connectRedis(options: ContainerOptions) {
  if (!options.config.redisUrl) return undefined;
  const client = new Redis(options.config.redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Repeated Redis failures (every reconnection attempt while it is down) write one line a minute.
  const warn = rateLimitedWarn(options.warn);
  client.on('error', (error) => warn('redis unavailable', error));
  client.connect().catch(() => {});
  return { client, warn };
}
type RedisConnection = ReturnType<typeof connectRedis>;

// How often an instance exchanges its rate-limit counts with the others through Redis.
const rateLimitSyncMs = 200;

/** The rate limits: per instance, or with REDIS_URL shared through Redis by the rate-limit sync job. */
function createRateLimits(options: ContainerOptions, redis: RedisConnection) {
  const { config, warn } = options;
  const sharedLimiter = redis
    ? createSharedRateLimiter({
        counters: createRedisSharedCounters(redis.client, `autofin:${config.environment}`),
        syncMs: rateLimitSyncMs,
        manual: true,
        onUnavailable: (error) => warn('rate limits are per instance until Redis answers again', error),
        onRecovered: () => warn('redis answers again: rate limits are shared again'),
      })
    : undefined;
  const limiter: RateLimiter = sharedLimiter ?? createMemoryRateLimiter();
  const jobs: Job[] = sharedLimiter
    ? [repeatingJob('rate-limit sync', { everyMs: rateLimitSyncMs }, () => sharedLimiter.exchange())]
    : [];
  return {
    limiter,
    /** With REDIS_URL: the rate limits shared through Redis (their state is a metric). */
    sharedLimiter,
    jobs,
    close: async () => sharedLimiter?.close(),
  };
}

// Short enough that a revocation reaches instances without Redis (or while it is down) within a
// second: the status is read from the database at most this long before it is used, plus the
// query's own time (docs/api.md).
const credentialStatusTtlMs = 750;

/** Companies, their credentials and the partner's access tokens; revocations reach every instance. */
function createPartnerAccess(options: ContainerOptions, redis: RedisConnection) {
  const { config, db, clock } = options;
  const repository = createCompaniesRepository(db);
  const statusCache = createCredentialStatusCache(credentialStatusTtlMs);
  const onRevoked = (key: string) => statusCache.invalidate(key);
  const revocations = redis
    ? createRedisRevocationBus(redis.client, config.environment, onRevoked, redis.warn)
    : createLocalRevocationBus(onRevoked);
  const tokens = createAccessTokens(options.signingKey, config.environment, config.tokenSigningPreviousKeys);
  const auth = createAuthService({ repository, tokens, statusCache, clock, tokenTtlSeconds: config.tokenTtlSeconds });
  const companies = createCompaniesService({
    db,
    repository,
    clock,
    onCredentialRevoked: (key) => revocations.publish(key),
  });
  return { repository, tokens, auth, companies, close: () => revocations.close() };
}

/** Providers, bureau, leads, their verification and the sandbox: the partner's lead flow. */
function createLeadWork(
  options: ContainerOptions,
  keys: DataKeys,
  companies: ReturnType<typeof createCompaniesRepository>,
  catalogs: ReturnType<typeof createCatalogsModule>,
) {
  const { config, db, clock } = options;
  const { encryption, derived } = keys;
  const metrics = createServiceMetrics();
  // Every provider log line carries the request, lead and company it was made for.
  const providerLogger = withCallContext(options.logger ?? pino({ level: 'silent' }));
  const providers = createProviders(config, {
    logger: providerLogger,
    onCall: metrics.providerCall,
    clock,
    smsSink: options.messageSinks?.sms,
    emailSink: options.messageSinks?.email,
    circuit: options.circuit,
    tracer: options.tracing?.provider,
  });
  metrics.observeCircuits(providers.outbound.state);
  const bureau = createBureau(config, { db, encryption, outbound: providers.outbound, clock, logger: providerLogger });
  const prequalificationConfig = options.prequalificationConfig ?? loadPrequalificationConfig();
  // The webhooks module owns the outbox tables; lead changes join its CTEs to their own statement.
  const repository = createLeadsRepository(db, outboxCtes);
  const sealer = createLeadSealer(encryption);
  // Reads, moves and erasure of leads for the other modules; pre-qualification applied with the pure evaluator.
  const lifecycle = createLeadLifecycle({
    db,
    repository,
    sealer,
    reports: bureau,
    prequalify: (input, now) => evaluatePrequalification(input, prequalificationConfig, now),
    clock,
  });
  // Only the sandbox environment has magic recipients and readable PIN messages (docs/sandbox.md).
  const sandbox =
    config.environment === 'sandbox'
      ? createSandboxService({ messages: createSandboxMessagesRepository(db), leads: lifecycle, encryption })
      : undefined;
  const consents = createConsents(db);
  const verificationService = createVerificationService({
    db,
    leads: lifecycle,
    verification: createVerificationRepository(db),
    consents,
    providers,
    bureau,
    // A key of its own for PIN hashes, derived so no extra secret has to be configured.
    pinKeys: derived('pin-hash'),
    clock,
    bureauLeaseMs: config.providerTimeoutMs * 2,
    sandbox,
  });
  const verification = instrumentVerification(verificationService, metrics);
  const leads = createLeadsService({
    db,
    leads: repository,
    companies,
    sealer,
    catalogs: catalogs.store.lookup,
    clock,
    lifecycle,
    fingerprintKeys: derived('fingerprints'),
  });
  return {
    services: {
      leads,
      verification,
      /** Present in the sandbox environment only. */ sandbox,
      providers,
      bureau,
      metrics,
    },
    internal: { repository, sealer, lifecycle, consents },
    encryptedColumns: [...leadEncryptedColumns(derived('fingerprints')[0]!), ...reportEncryptedColumns],
    close: () => Promise.allSettled([providers.close(), bureau.close()]),
  };
}
type LeadWork = ReturnType<typeof createLeadWork>;

const retentionIntervalMs = 24 * 60 * 60 * 1000;
const retentionFirstRunMs = 60_000;

/** The lender's side: operators and their console, audit, outcomes, lead reads, exports and erasure. */
function createLenderWork(options: ContainerOptions, keys: DataKeys, leadWork: LeadWork, limiter: RateLimiter) {
  const { config, db, clock } = options;
  const { repository, sealer, lifecycle, consents } = leadWork.internal;
  const { bureau, verification, sandbox } = leadWork.services;
  const audit = createAuditService({ repository: createAuditRepository(db), clock });
  // The lender's decisions (docs/lender-api.md, "Outcomes"): the lead is locked and named through the leads module.
  const outcomes = createOutcomesService({
    db,
    repository: createOutcomesRepository(db, outboxCtes),
    audit,
    encryption: keys.encryption,
    clock,
    leads: {
      async lockForOutcome(leadId, tx) {
        const row = await repository.lockById(leadId, tx);
        return (
          row && {
            id: row.id,
            companyId: row.company_id,
            externalAutoId: row.external_auto_id,
            status: row.status,
            verified: isVerified(row.status),
          }
        );
      },
    },
  });
  const funnel = createFunnelService({ repository: createFunnelRepository(db, verifiedStatuses), parseDate });
  const operatorsRepository = createOperatorsRepository(db);
  const operators = createOperatorsService({ repository: operatorsRepository, clock });
  // The operator console's sessions and sign-in (docs/console.md); sign-in attempts share the rate limits.
  const sessions = createConsoleSessions({ repository: createConsoleSessionsRepository(db), clock });
  const signIn = createConsoleSignIn({ operators: operatorsRepository, limiter });
  const csrfKey = Buffer.from(hkdfSync('sha256', options.encryptionKey, 'autofin', 'console-csrf', 32));
  const queries = createLenderLeadQueries(db);
  const lenderLeads = createLenderLeadsService({
    db,
    queries,
    leads: lifecycle,
    reports: bureau,
    consents,
    audit,
    sealer,
    outcomes,
  });
  const erasure = createPersonalDataErasure({
    db,
    queries,
    leads: lifecycle,
    pins: verification,
    reports: bureau,
    sandbox,
    outcomes,
    audit,
    clock,
    retentionDays: config.piiRetentionDays,
  });
  // The retention purge, a minute after start then daily, on every instance (erasing twice changes
  // nothing). Console sessions that can no longer be used are forgotten on the same schedule.
  const daily = { firstMs: retentionFirstRunMs, everyMs: retentionIntervalMs };
  const jobs = [
    repeatingJob('retention purge', daily, () =>
      erasure.purge({ dryRun: false }).catch((e) => options.warn('retention purge failed', e)),
    ),
    repeatingJob('console session purge', daily, () =>
      sessions.purgeDead().catch((e) => options.warn('console session purge failed', e)),
    ),
  ];
  return {
    services: {
      leadQueries: createLeadQueries({ leads: repository, sealer, outcomes }),
      audit,
      outcomes,
      funnel,
      operators,
      console: { sessions, signIn, csrfKey },
      lenderLeads,
      erasure,
    },
    jobs,
  };
}
