/**
 * The composition root: builds each module in dependency order and collects what they offer: the
 * services, the route plugins the app registers (routes.ts), the background jobs the process
 * starts and stops (src/jobs), and the encrypted columns key rotation covers. `main`, the CLI,
 * benchmarks and the test helper all build the service through here.
 */
import { createSecretKey, hkdfSync } from 'node:crypto';
import { createAdminModule } from './admin/index.ts';
import { createAuditModule, type AuditService } from './audit/index.ts';
import { createAuthModule } from './auth/index.ts';
import { createBackupModule } from './backup/index.ts';
import { createBureauModule } from './bureau/index.ts';
import { createCatalogsModule, type CatalogStore } from './catalogs/index.ts';
import { createCompaniesModule } from './companies/index.ts';
import type { Config } from './config/index.ts';
import { createConsentModule } from './consent/index.ts';
import { createConsoleModule } from './console/index.ts';
import type { Db, EncryptedColumn } from './db/index.ts';
import {
  conditionStatusReader,
  createDocumentsModule,
  documentStoreAnswers,
  openDocumentStore,
  type DocumentStore,
} from './documents/index.ts';
import {
  createMemoryRateLimiter,
  createMemorySlidingWindow,
  createRedisSlidingWindow,
  createRedisSharedCounters,
  createSharedRateLimiter,
  type AdminAccess,
  type RateLimiter,
  type SlidingWindowLimiter,
} from './http/index.ts';
import { createJobs, repeatingJob, untilDone, type Job } from './jobs/index.ts';
import { createKeysModule } from './keys/index.ts';
import { createLeadsModule } from './leads/index.ts';
import {
  createLeadKeyMigration,
  createLeadKeysModule,
  type LeadColumn,
  type LeadKeysModule,
  type LeadSealing,
} from './lead-keys/index.ts';
import { createLenderModule } from './lender/index.ts';
import { createOperationsModule } from './operations/index.ts';
import { createOperatorsModule, type PasswordCost } from './operators/index.ts';
import { createOutcomesModule } from './outcomes/index.ts';
import type { PrequalificationConfig } from './prequalification/index.ts';
import { createProvidersModule, type EmailMessage, type ProviderLogger, type SmsMessage } from './providers/index.ts';
import { routesOf } from './routes.ts';
import { createSandboxModule } from './sandbox/index.ts';
import { createFieldEncryption, rateLimitedWarn, type Clock } from './shared/index.ts';
import type { Tracing } from './tracing/index.ts';
import { createVerificationModule } from './verification/index.ts';
import { createWebhooksModule, type Resolver } from './webhooks/index.ts';

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
  /** scrypt's cost for operators' new passwords (src/operators/password-hash.ts); tests give a lower one. */
  passwordCost?: PasswordCost;
  /** Spans for statements, provider calls and webhook deliveries, when tracing is on (src/tracing). */
  tracing?: Pick<Tracing, 'traceDb' | 'provider' | 'delivery'>;
}

export async function createContainer(givenOptions: ContainerOptions) {
  // With tracing on, every repository gets the traced database (the container's `db` too).
  const options = { ...givenOptions, db: givenOptions.tracing?.traceDb(givenOptions.db) ?? givenOptions.db };
  const { config, db, clock, warn } = options;
  const { keys, leadKeys } = dataKeys(options);
  const redis = await connectRedis(options);
  const limits = createRateLimits(options, redis);
  // Every admin route checks the admin token or an operator's key.
  const operators = createOperatorsModule({
    db,
    clock,
    adminToken: config.adminToken,
    passwordCost: options.passwordCost,
  });
  const access: AdminAccess = { adminToken: config.adminToken, operators: operators.service };
  const companies = createCompaniesModule({ db, clock, environment: config.environment, redis });
  const auth = createAuthModule({ ...options, credentials: companies.lookups, limiter: limits.limiter });
  const catalogs = createCatalogsModule({ db, clock, store: options.catalogStore, warn });
  const admin = createAdminModule({ companies: companies.service, imports: catalogs.imports, access });
  const webhooks = createWebhooksModule({
    ...options,
    encryption: keys.encryption,
    resolver: options.webhookResolver,
    tracer: options.tracing?.delivery,
    access,
  });
  // Where documents' sealed bytes are kept: the database, or a bucket (DOCUMENT_STORE).
  const documentStore = await openDocumentStore(config, db);
  const leadFlow = await createLeadFlow(options, keys, companies, catalogs, documentStore);
  const lenderSide = createLenderSide(options, keys, leadFlow, access, { documentStore, leadKeys });
  const operatorConsole = createConsole(options, keys, limits.attempts, {
    leadFlow,
    lenderSide,
    companies,
    webhooks,
    catalogs,
    operators,
  });
  const { keysModule, backup, migration } = createStoredDataCare(
    options,
    keys,
    { access, audit: lenderSide.services.audit },
    auth,
    [
      ...leadFlow.encryptedColumns,
      ...webhooks.encryptedColumns,
      ...leadFlow.sandboxColumns,
      ...lenderSide.encryptedColumns,
      ...leadKeys.encryptedColumns,
    ],
    leadKeys.shredAsked,
  );
  const services = {
    config,
    db,
    clock,
    limiter: limits.limiter,
    sharedLimiter: limits.sharedLimiter,
    auth: auth.service,
    companies: companies.service,
    catalogs: { store: catalogs.store, imports: catalogs.imports },
    operators: operators.service,
    ...leadFlow.services,
    ...lenderSide.services,
    webhooks,
    keys: keysModule.service,
    /** Each lead's own key: the sealing of its values, and the shredding of erased leads' keys. */
    leadKeys: { sealing: leadKeys.sealing, shredAsked: leadKeys.shredAsked },
    backup: backup.service,
  };
  const jobs = createJobs([
    ...leadKeys.jobs,
    ...migration.jobs,
    ...webhooks.jobs,
    ...catalogs.jobs,
    ...lenderSide.jobs,
    ...operatorConsole.jobs,
    ...limits.jobs,
  ]);
  // The modules whose routes the app serves, in the order it registers them (routes.ts).
  const routed = [leadFlow.modules.sandbox, leadFlow.modules.operations, auth, admin, operators];
  routed.push(...lenderSide.modules, keysModule, backup, catalogs, lenderSide.partnerLeads, lenderSide.documents);
  routed.push(leadFlow.modules.verification, webhooks);
  return {
    ...services,
    routes: routesOf(routed, operatorConsole.plugin),
    /** The background work: `main` starts it once it serves and stops it before closing. */
    jobs,
    /** Work before serving: the catalogs' import and loading (catalogs.module.ts). */
    prepare: catalogs.prepare,
    /** Stops the jobs, then closes what the modules hold open. */
    async close() {
      await jobs.stop();
      await webhooks.close();
      await Promise.allSettled([leadFlow.close(), limits.close(), companies.close()]);
      documentStore.close?.();
      redis?.client.disconnect();
    },
  };
}

export type Container = Awaited<ReturnType<typeof createContainer>>;

/** What cares for the stored data as a whole: key rotation over every encrypted column, and backups. */
function createStoredDataCare(
  options: ContainerOptions,
  keys: DataKeys,
  admin: { access: AdminAccess; audit: AuditService },
  auth: ReturnType<typeof createAuthModule>,
  encryptedColumns: EncryptedColumn[],
  shredErasedKeys: () => Promise<void>,
) {
  const { db, clock } = options;
  // Leads' values sealed before lead keys move to their leads' keys: in batches after start, and on re-encryption.
  const leadColumns = encryptedColumns.filter((c): c is LeadColumn => c.leadOf !== undefined);
  const moveToLeadKeys = createLeadKeyMigration(db, leadColumns, keys.encryption, keys.sealing).migrate;
  const migrationJob = repeatingJob(
    'lead key migration',
    { firstMs: 5_000, everyMs: 5_000 },
    untilDone(() => moveToLeadKeys(1_000).catch(() => 1)),
  );
  // Key rotation: the stored values' keys, checked before serving, and their re-encryption (audited).
  const keysModule = createKeysModule({
    db,
    encryption: keys.encryption,
    signing: auth.tokens,
    encryptedColumns,
    moveToLeadKeys,
    ...admin,
  });
  // Online copies of the embedded database (`GET /admin/backup`, audited), taken once erased keys are shredded.
  const backup = createBackupModule({ db, clock, shredErasedKeys, ...admin });
  return { keysModule, backup, migration: { jobs: [migrationJob] } };
}

/** The data encryption, the keys derived from it, current first, and the leads' own keys it wraps. */
function dataKeys(options: ContainerOptions) {
  const dataKeySet = dataEncryption(options);
  // Each lead's own key seals its personal values; erasure destroys it (src/lead-keys).
  const { db, clock, warn } = options;
  const leadKeys = createLeadKeysModule({ db, clock, encryption: dataKeySet.encryption, warn });
  const keys: DataKeys = { ...dataKeySet, sealing: leadKeys.sealing };
  return { keys, leadKeys };
}

/** The data encryption and the keys derived from it, current first. */
function dataEncryption(options: ContainerOptions) {
  const encryption = createFieldEncryption(options.encryptionKey, options.config.dataEncryptionPreviousKeys);
  // Keys derived from the data encryption keys, current first: the first writes, every one still matches
  // what was written before a rotation (PIN hashes, fingerprints of phones and idempotent requests).
  const encryptionKeys = [options.encryptionKey, ...options.config.dataEncryptionPreviousKeys];
  const derived = (purpose: string) =>
    encryptionKeys.map((key) => createSecretKey(Buffer.from(hkdfSync('sha256', key, 'autofin', purpose, 32))));
  return { encryption, derived };
}
type DataKeys = ReturnType<typeof dataEncryption> & { sealing: LeadSealing };

/**
 * Redis is never waited for: no command is queued while it is away (it fails at once), none waits
 * more than a second, and the client reconnects by itself. The service starts without it. Its client
 * (ioredis) is imported only with REDIS_URL.
 */
async function connectRedis(options: ContainerOptions) {
  if (!options.config.redisUrl) return undefined;
  // CommonJS: its exports are under `default`, bundled (a chunk of its own) as from the sources.
  const { Redis } = (await import('ioredis')).default;
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
type RedisConnection = Awaited<ReturnType<typeof connectRedis>>;

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
  // Rare, costly attempts (the console's sign-in) are counted in sliding windows, through Redis when set.
  const now = () => options.clock.now().getTime();
  const redisWarn = redis ? rateLimitedWarn(warn) : warn;
  const attempts: SlidingWindowLimiter = redis
    ? createRedisSlidingWindow(redis.client, `autofin:${config.environment}`, now, (error) =>
        redisWarn('sign-in limits are per instance until Redis answers again', error),
      )
    : createMemorySlidingWindow(now);
  const jobs: Job[] = sharedLimiter
    ? [repeatingJob('rate-limit sync', { everyMs: rateLimitSyncMs }, () => sharedLimiter.exchange())]
    : [];
  return {
    limiter,
    /** Sliding-window limits of rare attempts (the console's sign-in). */
    attempts,
    /** With REDIS_URL: the rate limits shared through Redis (their state is a metric). */
    sharedLimiter,
    jobs,
    close: async () => sharedLimiter?.close(),
  };
}

/** Providers, bureau, leads, their verification and the sandbox: the partner's lead flow. */
async function createLeadFlow(
  options: ContainerOptions,
  keys: DataKeys,
  companies: ReturnType<typeof createCompaniesModule>,
  catalogs: ReturnType<typeof createCatalogsModule>,
  documentStore: DocumentStore,
) {
  const { config, db, clock } = options;
  const { derived } = keys;
  // Ready while the database answers, and the document bucket when documents are kept in one.
  const operations = createOperationsModule({
    ping: async () => (await Promise.all([db.ping(), documentStoreAnswers(documentStore)])).every(Boolean),
  });
  const { metrics } = operations;
  const { providers, logger, ...providersModule } = await createProvidersModule({
    config,
    logger: options.logger,
    metrics,
    clock,
    smsSink: options.messageSinks?.sms,
    emailSink: options.messageSinks?.email,
    circuit: options.circuit,
    tracer: options.tracing?.provider,
  });
  const { sealing } = keys;
  const bureau = createBureauModule({ config, db, sealing, outbound: providers.outbound, clock, logger });
  const leads = createLeadsModule({
    db,
    clock,
    sealing,
    fingerprintKeys: derived('fingerprints'),
    reports: bureau.bureau,
    companies: companies.lookups,
    catalogs: catalogs.store.lookup,
    prequalificationConfig: options.prequalificationConfig,
  });
  const sandbox = createSandboxModule({ db, environment: config.environment, leads: leads.lifecycle, sealing });
  const { consents } = createConsentModule({ db });
  const verification = createVerificationModule({
    db,
    leads: leads.lifecycle,
    consents,
    providers,
    bureau: bureau.bureau,
    // A key of its own for PIN hashes, derived so no extra secret has to be configured.
    pinKeys: derived('pin-hash'),
    clock,
    bureauLeaseMs: config.providerTimeoutMs * 2,
    sandbox: sandbox.service,
    metrics,
  });
  return {
    services: {
      leads: leads.service,
      verification: verification.service,
      /** Present in the sandbox environment only. */ sandbox: sandbox.service,
      providers,
      bureau: bureau.bureau,
      metrics,
    },
    internal: { leads, consents },
    /** The modules that serve routes. */
    modules: { sandbox, operations, verification },
    encryptedColumns: [...leads.encryptedColumns, ...bureau.encryptedColumns],
    sandboxColumns: sandbox.encryptedColumns,
    close: () => Promise.allSettled([providersModule.close(), bureau.close()]),
  };
}
type LeadFlow = Awaited<ReturnType<typeof createLeadFlow>>;

const daily = { firstMs: 60_000, everyMs: 24 * 60 * 60 * 1000 };

/** The lender's side: audit, outcomes, documents, lead reads, exports and erasure. */
function createLenderSide(
  options: ContainerOptions,
  keys: DataKeys,
  leadFlow: LeadFlow,
  access: AdminAccess,
  stores: { documentStore: DocumentStore; leadKeys: LeadKeysModule },
) {
  const { config, db, clock, warn } = options;
  const { documentStore, leadKeys } = stores;
  const { leads, consents } = leadFlow.internal;
  const { bureau, verification, sandbox } = leadFlow.services;
  const audit = createAuditModule({ db, clock, access });
  const outcomes = createOutcomesModule({
    db,
    audit: audit.service,
    sealing: keys.sealing,
    clock,
    leads: leads.outcomeLeads,
    // Conditions show their documents' status; the documents module checks uploads against the outcome.
    conditionStatuses: conditionStatusReader(db),
    access,
  });
  const documents = createDocumentsModule({
    db,
    clock,
    store: documentStore,
    sealing: keys.sealing,
    fingerprintKeys: keys.derived('document-fingerprints'),
    leads: { lockForOutcome: leads.outcomeLeads.lockForOutcome, companyOf: leads.companyOf },
    outcomes: outcomes.service,
    audit: audit.service,
    sandbox: sandbox !== undefined,
    access,
    warn,
  });
  // The partner's reads of its leads show the lender's decision: the leads' routes come with them.
  const partnerLeads = leads.withOutcomes(outcomes.service);
  // The retention purge, a minute after start then daily.
  const lender = createLenderModule({
    db,
    clock,
    leads: { queries: leads.lenderQueries, lifecycle: leads.lifecycle, sealer: leads.sealer },
    reports: bureau,
    consents,
    audit: audit.service,
    outcomes: outcomes.service,
    pins: verification,
    documents: documents.service,
    leadKeys,
    sandbox,
    retention: { piiRetentionDays: config.piiRetentionDays, creditRetentionYears: config.creditRetentionYears },
    rules: leads.rules,
    purgeSchedule: daily,
    warn,
    access,
  });
  return {
    services: {
      leadQueries: partnerLeads.queries,
      audit: audit.service,
      outcomes: outcomes.service,
      funnel: outcomes.funnel,
      lenderLeads: lender.leads,
      erasure: lender.erasure,
      documents: documents.service,
    },
    /** The modules that serve admin routes, in order, and the partner's lead and document routes. */
    modules: [lender, outcomes, audit],
    partnerLeads,
    documents,
    jobs: [...lender.jobs, ...documents.jobs],
    encryptedColumns: [...outcomes.encryptedColumns, ...documents.encryptedColumns],
  };
}

/** The modules whose services the console's pages show and change. */
interface ConsoleSources {
  leadFlow: LeadFlow;
  lenderSide: ReturnType<typeof createLenderSide>;
  companies: ReturnType<typeof createCompaniesModule>;
  webhooks: ReturnType<typeof createWebhooksModule>;
  catalogs: ReturnType<typeof createCatalogsModule>;
  operators: ReturnType<typeof createOperatorsModule>;
}

/** The operator console (docs/console.md); its dead sessions are purged on the retention schedule. */
function createConsole(
  options: ContainerOptions,
  keys: DataKeys,
  attempts: SlidingWindowLimiter,
  from: ConsoleSources,
) {
  const lender = from.lenderSide.services;
  return createConsoleModule({
    db: options.db,
    clock: options.clock,
    operators: from.operators.accounts,
    attempts,
    csrfKey: keys.derived('console-csrf')[0]!.export(),
    purgeSchedule: daily,
    warn: options.warn,
    pages: {
      sandbox: from.leadFlow.services.sandbox !== undefined,
      lenderLeads: lender.lenderLeads,
      companies: from.companies.service,
      webhooks: from.webhooks.service,
      catalogs: from.catalogs.imports,
      operators: from.operators.service,
      audit: lender.audit,
      outcomes: lender.outcomes,
      documents: lender.documents,
      funnel: lender.funnel,
    },
  });
}
