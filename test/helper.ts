/**
 * Builds the real app for a test file: a database (test/test-database.ts), the composition root, captured logs, an
 * admin token and a ready partner (company, affiliate, credential, token).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { createContainer, type Container } from '../src/composition.ts';
import { leadSealer, leadsTable, type LeadStore } from './lead-store.ts';
import { loadConfig, type Config } from '../src/config/config.ts';
import { createCatalogStore, type CatalogStore } from '../src/catalogs/catalog-store.ts';
import { createCatalogsRepository } from '../src/catalogs/catalogs.repository.ts';
import { createManualClock, systemClock, type Clock } from '../src/shared/clock.ts';
import { createTestDatabase, ownTestDatabase, sharedTestDatabase, type TestDatabase } from './test-database.ts';
import pino from 'pino';
import { loggerOptions } from '../src/shared/logging.ts';
import type { EmailMessage, SmsMessage } from '../src/providers/ports.ts';
import { conformanceChecker, type ConformanceChecker } from './openapi-conformance.ts';

export const adminToken = 'test-admin-token-0123456789abcdef';
/**
 * scrypt's cost for the passwords test apps store: a 32nd of the service's, whose hash takes a tenth to a
 * quarter of a second of CPU (src/operators/password-hash.test.ts checks the service's own cost).
 */
const testPasswordCost = { N: 2 ** 10, r: 8, p: 1 };
export const api = '/mx/b2b/autofin/api';

export interface Partner {
  companyId: string;
  userId: string;
  consumerKey: string;
  consumerSecret: string;
  token: string;
  /** Authorization and content-type headers for partner requests. */
  headers: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  database: TestDatabase;
  config: Config;
  clock: Clock;
  logs: string[];
  outbox: Outbox;
  /** The leads table and sealer of this app, for tests that write leads straight in the database. */
  leads: LeadStore;
  partner: Partner;
  newPartner(): Promise<Partner>;
  admin: Record<string, string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** A fresh catalog store instead of the one the file shares (tests that import catalogs). */
  ownCatalogStore?: boolean;
  /** Called before `app.ready()`, e.g. to register a route only a test needs. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  circuit?: { failureThreshold?: number; openMs?: number };
  /** The app's log level (default debug: every line a request can write is written and captured). */
  logLevel?: string;
  /** How webhook hostnames resolve (SSRF tests). */
  webhookResolver?: import('../src/webhooks/index.ts').Resolver;
  /** Tracing, started by the test (src/tracing/index.ts `loadTracing`). */
  tracing?: import('../src/tracing/index.ts').Tracing;
  /**
   * The app's database (test/test-database.ts): `shared` (default), the process's database that files share
   * apart by tenant; `own`, emptied for a file that reads or writes lender-wide tables; `fresh`, new from the
   * template (the default with `ownCatalogStore`); or another app's (a second instance), left to its owner.
   */
  database?: TestDatabase | 'shared' | 'own' | 'fresh';
}

/** Messages the log providers "sent", for tests to read PINs from. */
export interface Outbox {
  sms: SmsMessage[];
  email: EmailMessage[];
}

let sharedStore: Promise<CatalogStore> | undefined;

function catalogStoreFor(database: TestDatabase): Promise<CatalogStore> {
  sharedStore ??= (async () => {
    const store = createCatalogStore();
    await store.loadFromDatabase(createCatalogsRepository(database.db));
    return store;
  })();
  return sharedStore;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    AUTOFIN_ENV: 'test',
    ADMIN_TOKEN: adminToken,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'autofin-test-')),
    ...env,
  });
}

function databaseFor(options: TestAppOptions): Promise<TestDatabase> {
  const kind = options.database ?? (options.ownCatalogStore ? 'fresh' : 'shared');
  if (typeof kind === 'object') return Promise.resolve(kind);
  if (kind === 'own') return ownTestDatabase();
  return kind === 'fresh' ? createTestDatabase() : sharedTestDatabase();
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await databaseFor(options);
  const config = testConfig(options.env);
  const clock = options.clock ?? systemClock;
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  const outbox: Outbox = { sms: [], email: [] };
  const encryptionKey = config.dataEncryptionKey ?? randomBytes(32);
  const container = await createContainer({
    config,
    db: database.db,
    clock,
    signingKey: config.tokenSigningKey ?? randomBytes(32),
    encryptionKey,
    warn: () => {},
    catalogStore: options.ownCatalogStore ? undefined : await catalogStoreFor(database),
    logger: pino(loggerOptions('debug', options.tracing?.logFields), logStream),
    messageSinks: { sms: (m) => outbox.sms.push(m), email: (m) => outbox.email.push(m) },
    circuit: options.circuit,
    webhookResolver: options.webhookResolver,
    tracing: options.tracing,
    passwordCost: testPasswordCost,
  });
  await container.prepare();
  const app = await buildApp({ container, logLevel: options.logLevel ?? 'debug', logStream, tracing: options.tracing });
  await options.beforeReady?.(app);
  await app.ready();
  await checkAnswersAgainstDocument(app, options.env);
  const admin = { authorization: `Bearer ${adminToken}` };

  async function newPartner(): Promise<Partner> {
    const company = (
      await app.inject({ method: 'POST', url: '/admin/companies', headers: admin, payload: { name: 'Autos Test' } })
    ).json();
    const affiliate = (
      await app.inject({
        method: 'POST',
        url: `/admin/companies/${company.id}/affiliates`,
        headers: admin,
        payload: { user_type: 'SELLER' },
      })
    ).json();
    const credential = (
      await app.inject({ method: 'POST', url: `/admin/companies/${company.id}/credentials`, headers: admin })
    ).json();
    const token = (await app.inject({ method: 'POST', url: '/auth/token', payload: credential })).json()
      .access_token as string;
    return {
      companyId: company.id,
      userId: affiliate.user_id,
      consumerKey: credential.consumer_key,
      consumerSecret: credential.consumer_secret,
      token,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    };
  }

  return {
    app,
    container,
    database,
    config,
    clock,
    logs,
    outbox,
    leads: {
      repository: leadsTable(database.db),
      sealer: leadSealer(database.db, encryptionKey, config.dataEncryptionPreviousKeys),
    },
    admin,
    newPartner,
    partner: await newPartner(),
    async close() {
      await app.close();
      await container.close();
      if (typeof options.database !== 'object') await database.drop();
    },
  };
}

const checkers = new Map<string, ConformanceChecker>();

/**
 * Every answer a test gets through `app.inject` is checked against the OpenAPI document the app
 * serves (test/openapi-conformance.ts): an answer that breaks it rejects, which fails the test. Apps built
 * with the same settings and the same routes serve the same document: it is read (and its checker made)
 * once per process for them, which halves the cost of building a test app.
 */
async function checkAnswersAgainstDocument(app: FastifyInstance, env: Record<string, string> = {}): Promise<void> {
  const inject = app.inject.bind(app) as (...args: unknown[]) => unknown;
  const key = `${JSON.stringify(env)}\n${app.printRoutes({ commonPrefix: false })}`;
  let checker = checkers.get(key);
  if (!checker) {
    const served = await app.inject({ method: 'GET', url: `${api}/openapi.json` });
    checker = conformanceChecker(served.json());
    checkers.set(key, checker);
  }
  const check = checker.check;
  app.inject = ((...args: unknown[]) => {
    const [request] = args;
    // Only the promise form with options is checked; the chain and callback forms are not used.
    if (args.length !== 1 || typeof request !== 'object' || request === null) return inject(...args);
    const { method = 'GET', url, path } = request as { method?: string; url?: string | object; path?: string | object };
    const target = typeof url === 'string' ? url : typeof path === 'string' ? path : undefined;
    return (inject(request) as Promise<LightMyRequestResponse>).then((response) => {
      if (target !== undefined) check({ method: method.toUpperCase(), url: target, response });
      return response;
    });
  }) as typeof app.inject;
}

/** Assertion messages print the body, so a failing test shows what the partner saw. */
export function show(response: LightMyRequestResponse): string {
  return `${response.statusCode} ${response.body}`;
}

export { createManualClock };
