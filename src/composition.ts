/**
 * The composition root: wires repositories, services and adapters. `main`, the CLI, benchmarks
 * and the test helper all build the service through here.
 */
import { Redis } from 'ioredis';
import { type Db, createSealedValues } from './db/index.ts';
import { type Clock, rateLimitedWarn, createFieldEncryption } from './shared/index.ts';
import { createCompaniesRepository, createCompaniesService } from './companies/index.ts';
import {
  createAccessTokens,
  createCredentialStatusCache,
  createAuthService,
  createLocalRevocationBus,
  createRedisRevocationBus,
  type RevocationBus,
} from './auth/index.ts';
import {
  createMemoryRateLimiter,
  type RateLimiter,
  createSharedRateLimiter,
  type SharedRateLimiter,
  createRedisSharedCounters,
} from './http/index.ts';
import type { Config } from './config/index.ts';
import {
  createCatalogsRepository,
  createCatalogStore,
  type CatalogStore,
  type ShippedParsing,
} from './catalogs/index.ts';
import {
  createLeadSealer,
  createLeadsRepository,
  createLeadsService,
  createLeadQueries,
  createLeadLifecycle,
  createLenderLeadQueries,
  leadEncryptedColumns,
  isVerified,
  parseDate,
  verifiedStatuses,
} from './leads/index.ts';
import { hkdfSync } from 'node:crypto';
import pino from 'pino';
import {
  type EmailMessage,
  type SmsMessage,
  type ProviderLogger,
  createProviders,
  withCallContext,
} from './providers/index.ts';
import { createBureau, reportEncryptedColumns } from './bureau/index.ts';
import {
  evaluatePrequalification,
  loadPrequalificationConfig,
  type PrequalificationConfig,
} from './prequalification/index.ts';
import {
  createVerificationRepository,
  createVerificationService,
  instrumentVerification,
} from './verification/index.ts';
import { createServiceMetrics } from './operations/index.ts';
import { createSandboxService, createSandboxMessagesRepository, sandboxEncryptedColumns } from './sandbox/index.ts';
import { createOperatorsRepository, createOperatorsService } from './operators/index.ts';
import { createConsents } from './consent/index.ts';
import { createAuditRepository, createAuditService } from './audit/index.ts';
import { createLenderLeadsService, createPersonalDataErasure } from './lender/index.ts';
import {
  createDeliveryWorker,
  createUrlPolicy,
  createWebhookSender,
  createWebhooksService,
  outboxCtes,
  type Resolver,
  webhookEncryptedColumns,
  createWebhooksRepository,
  createWebhookMetrics,
} from './webhooks/index.ts';
import { createKeysService } from './keys/index.ts';
import { createConsoleSessionsRepository, createConsoleSessions, createConsoleSignIn } from './console/index.ts';
import type { Tracing } from './tracing/index.ts';
import {
  createFunnelService,
  createOutcomesService,
  outcomeEncryptedColumns,
  createOutcomesRepository,
  createFunnelRepository,
} from './outcomes/index.ts';
import { createBackupService } from './backup/index.ts';

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

// Short enough that a revocation reaches instances without Redis (or while it is down) within a
// second: the status is read from the database at most this long before it is used, plus the
// query's own time (docs/api.md).
const credentialStatusTtlMs = 750;
// How often an instance exchanges its rate-limit counts with the others through Redis.
const rateLimitSyncMs = 200;
const catalogRefreshMs = 5000;
const retentionIntervalMs = 24 * 60 * 60 * 1000;
const retentionFirstRunMs = 60_000;

export async function createContainer(givenOptions: ContainerOptions) {
  // With tracing on, every repository gets the traced database (the container's `db` too).
  const options = { ...givenOptions, db: givenOptions.tracing?.traceDb(givenOptions.db) ?? givenOptions.db };
  const { config, db, clock } = options;
  // Repeated Redis failures (every reconnection attempt while it is down) write one line a minute.
  const warnRedis = rateLimitedWarn(options.warn);
  // Redis is never waited for: no command is queued while it is away (it fails at once), none waits
  // more than a second, and the client reconnects by itself. The service starts without it.
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: 1_000,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      })
    : undefined;
  if (redis) {
    redis.on('error', (error) => warnRedis('redis unavailable', error));
    redis.connect().catch(() => {});
  }
  const prefix = `autofin:${config.environment}`;
  const sharedLimiter: SharedRateLimiter | undefined = redis
    ? createSharedRateLimiter({
        counters: createRedisSharedCounters(redis, prefix),
        syncMs: rateLimitSyncMs,
        onUnavailable: (error) => options.warn('rate limits are per instance until Redis answers again', error),
        onRecovered: () => options.warn('redis answers again: rate limits are shared again'),
      })
    : undefined;
  const limiter: RateLimiter = sharedLimiter ?? createMemoryRateLimiter();

  const companiesRepository = createCompaniesRepository(db);
  const statusCache = createCredentialStatusCache(credentialStatusTtlMs);
  const onRevoked = (key: string) => statusCache.invalidate(key);
  const revocations: RevocationBus = redis
    ? createRedisRevocationBus(redis, config.environment, onRevoked, warnRedis)
    : createLocalRevocationBus(onRevoked);

  const tokens = createAccessTokens(options.signingKey, config.environment, config.tokenSigningPreviousKeys);
  const auth = createAuthService({
    repository: companiesRepository,
    tokens,
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

  // The webhooks module owns the outbox tables; lead changes join its CTEs to their own statement.
  const leadsRepository = createLeadsRepository(db, outboxCtes);
  const encryption = createFieldEncryption(options.encryptionKey, config.dataEncryptionPreviousKeys);
  // Keys derived from the data encryption keys, current first: the first writes, every one still matches
  // what was written before a rotation (PIN hashes, fingerprints of phones and idempotent requests).
  const encryptionKeys = [options.encryptionKey, ...config.dataEncryptionPreviousKeys];
  const derived = (purpose: string) =>
    encryptionKeys.map((key) => Buffer.from(hkdfSync('sha256', key, 'autofin', purpose, 32)));
  const sealer = createLeadSealer(encryption);
  const verificationRepository = createVerificationRepository(db);
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
  // Reads, moves and erasure of leads for the other modules; pre-qualification applied with the pure evaluator.
  const leadLifecycle = createLeadLifecycle({
    db,
    repository: leadsRepository,
    sealer,
    reports: bureau,
    prequalify: (input, now) => evaluatePrequalification(input, prequalificationConfig, now),
    clock,
  });
  // Only the sandbox environment has magic recipients and readable PIN messages (docs/sandbox.md).
  const sandboxMessages = config.environment === 'sandbox' ? createSandboxMessagesRepository(db) : undefined;
  const sandbox = sandboxMessages
    ? createSandboxService({ messages: sandboxMessages, leads: leadLifecycle, encryption })
    : undefined;
  const consents = createConsents(db);
  const verificationService = createVerificationService({
    db,
    leads: leadLifecycle,
    verification: verificationRepository,
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
    leads: leadsRepository,
    companies: companiesRepository,
    sealer,
    catalogs: catalogStore.lookup,
    clock,
    lifecycle: leadLifecycle,
    fingerprintKeys: derived('fingerprints'),
  });
  const audit = createAuditService({ repository: createAuditRepository(db), clock });
  // The lender's decisions (docs/lender-api.md, "Outcomes"): the lead is locked and named through the leads module.
  const outcomes = createOutcomesService({
    db,
    repository: createOutcomesRepository(db, outboxCtes),
    audit,
    encryption,
    clock,
    leads: {
      async lockForOutcome(leadId, tx) {
        const row = await leadsRepository.lockById(leadId, tx);
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
  const leadQueries = createLeadQueries({ leads: leadsRepository, sealer, outcomes });
  const operatorsRepository = createOperatorsRepository(db);
  const operators = createOperatorsService({ repository: operatorsRepository, clock });
  // The operator console's sessions and sign-in (docs/console.md); sign-in attempts share the rate limits.
  const consoleSessions = createConsoleSessions({ repository: createConsoleSessionsRepository(db), clock });
  const consoleSignIn = createConsoleSignIn({ operators: operatorsRepository, limiter });
  const lenderLeadQueries = createLenderLeadQueries(db);
  const lenderLeads = createLenderLeadsService({
    db,
    queries: lenderLeadQueries,
    leads: leadLifecycle,
    reports: bureau,
    consents,
    audit,
    sealer,
    outcomes,
  });
  const erasure = createPersonalDataErasure({
    db,
    queries: lenderLeadQueries,
    leads: leadLifecycle,
    pins: verification,
    reports: bureau,
    sandbox,
    outcomes,
    audit,
    clock,
    retentionDays: config.piiRetentionDays,
  });
  let retentionTimer: NodeJS.Timeout | undefined;
  // The purge running now, if any: closing waits for it rather than pulling the database from under it.
  let purging: Promise<unknown> | undefined;
  const webhooks = createWebhooks(options, encryption);
  const keys = createKeysService({
    encryption,
    signing: tokens,
    values: createSealedValues(
      db,
      [
        ...leadEncryptedColumns(derived('fingerprints')[0]!),
        ...reportEncryptedColumns,
        ...webhookEncryptedColumns,
        ...sandboxEncryptedColumns,
        ...outcomeEncryptedColumns,
      ],
      encryption,
    ),
  });

  /** Imports the shipped catalogs a fresh database lacks, and loads the index. */
  async function importOrLoad(
    progress?: (message: string, fields?: object) => void,
    storeAfter?: Promise<void>,
    parsing?: ShippedParsing,
  ): Promise<void> {
    const started = performance.now();
    const imported = await catalogStore.importShippedIfEmpty(catalogsRepository, {
      onImporting: (kind) => progress?.('importing a shipped catalog', { catalog: kind }),
      storeAfter,
      parsing,
    });
    for (const { kind, rowCount } of imported) progress?.('catalog imported', { catalog: kind, rows: rowCount });
    const ms = Math.round(performance.now() - started);
    progress?.(imported.length > 0 ? 'shipped catalogs ready' : 'catalogs loaded', { ms });
  }

  return {
    config,
    db,
    clock,
    limiter,
    /** With REDIS_URL: the rate limits shared through Redis (their state is a metric). */
    sharedLimiter,
    auth,
    companies,
    /**
     * Work before serving: importing the shipped catalogs into a fresh database, loading them.
     * `progress` hears of each catalog import, which takes seconds on a first start. With
     * `deferCatalogs`, the catalog tables are not read nor written until `loadCatalogs()` is called
     * (by `main` once it listens; requests meanwhile are held by catalogs/catalog-readiness.ts), but
     * the shipped files a fresh database lacks are parsed from now on, in a worker thread, while the
     * app is built. `shippedParsing`: those files already being parsed (`main` starts them while it
     * creates a new embedded database). The `ms` of the last progress message counts from here.
     */
    async prepare(
      progress?: (message: string, fields?: object) => void,
      mode: { deferCatalogs?: boolean; shippedParsing?: ShippedParsing } = {},
    ): Promise<{ loadCatalogs: () => Promise<void> }> {
      let listening = () => {};
      const storeAfter = mode.deferCatalogs ? new Promise<void>((resolve) => (listening = resolve)) : undefined;
      const loading = catalogStore.isLoaded()
        ? Promise.resolve()
        : importOrLoad(progress, storeAfter, mode.shippedParsing);
      loading.catch(() => undefined); // its failure reaches whoever awaits loadCatalogs()
      const loadCatalogs = () => {
        listening();
        return loading;
      };
      if (!mode.deferCatalogs) await loading;
      // Another instance may import a catalog: pick it up within a few seconds.
      catalogRefresh = setInterval(() => {
        catalogStore.refreshIfChanged(catalogsRepository).catch((e) => options.warn('catalog refresh failed', e));
      }, catalogRefreshMs);
      catalogRefresh.unref();
      // The retention purge, daily on every instance (erasing twice changes nothing).
      // Console sessions that can no longer be used are forgotten with it.
      const purge = () =>
        (purging = Promise.all([
          erasure.purge({ dryRun: false }).catch((e) => options.warn('retention purge failed', e)),
          consoleSessions.purgeDead().catch((e) => options.warn('console session purge failed', e)),
        ]));
      // A minute after start, then daily.
      retentionTimer = setTimeout(() => {
        void purge();
        retentionTimer = setInterval(purge, retentionIntervalMs);
        retentionTimer.unref();
      }, retentionFirstRunMs);
      retentionTimer.unref();
      return { loadCatalogs };
    },
    catalogs: { store: catalogStore, repository: catalogsRepository },
    leads,
    leadQueries,
    leadsRepository,
    sealer,
    verification,
    /** Present in the sandbox environment only. */
    sandbox,
    providers,
    bureau,
    operators,
    audit,
    lenderLeads,
    outcomes,
    funnel,
    console: {
      sessions: consoleSessions,
      signIn: consoleSignIn,
      csrfKey: Buffer.from(hkdfSync('sha256', options.encryptionKey, 'autofin', 'console-csrf', 32)),
    },
    erasure,
    /** Key rotation: the stored values' keys, checked before serving, and their re-encryption. */
    keys,
    /** Online copies of the embedded database (`GET /admin/backup`). */
    backup: createBackupService({ db, clock }),
    /** Service metrics (PIN outcomes, provider calls, circuits, rate-limit refusals), served by /metrics. */
    metrics,
    webhooks,
    async close() {
      clearInterval(catalogRefresh);
      // Webhook attempts in flight finish (or are given back untried) before the database closes.
      await webhooks.worker.stop();
      await webhooks.sender.close();
      clearTimeout(retentionTimer);
      clearInterval(retentionTimer);
      await purging;
      await Promise.allSettled([providers.close(), bureau.close()]);
      sharedLimiter?.close();
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
    repository,
    sender,
    encryption,
    clock,
    timeoutMs: config.webhookTimeoutMs,
    onAttempt: metrics.onAttempt,
    pollMs: config.webhookPollMs,
    concurrency: config.webhookConcurrency,
    perEndpoint: config.webhookConcurrencyPerEndpoint,
    // The migrations' trigger announces every delivery written on this channel (017_webhook_wake.sql).
    listen: (wake) => db.listen('autofin_webhooks', wake),
    warn: options.warn,
    tracer: options.tracing?.delivery,
  });
  const service = createWebhooksService({ repository, encryption, policy, clock, kick: () => worker.kick() });
  return { repository, policy, sender, metrics, worker, service };
}

export type Container = Awaited<ReturnType<typeof createContainer>>;
