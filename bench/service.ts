/**
 * The service as the bench runs it: built through the composition root like `main` and the test
 * helper, never listening until asked, with its logs written to /dev/null at the level `main`
 * uses (the cost of structured logging is part of a request's cost).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { createContainer, type Container } from '../src/composition.ts';
import { loadConfig, type Config } from '../src/config/config.ts';
import type { Db } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { openDatabase, preparedEmbeddedDatabase } from '../src/db/open-database.ts';
import { systemClock } from '../src/shared/clock.ts';
import { logDestination } from '../src/shared/logging.ts';
import type { Tracing } from '../src/tracing/index.ts';

export const benchAdminToken = randomBytes(24).toString('hex');

export function benchConfig(dataDir = mkdtempSync(join(tmpdir(), 'autofin-bench-'))): Config {
  return loadConfig({
    AUTOFIN_ENV: 'bench',
    DATA_DIR: dataDir,
    ADMIN_TOKEN: benchAdminToken,
    // The default (6,000 a minute per company) would turn the load into 429s within a second;
    // the limiter still counts every request, as in production.
    RATE_LIMIT_PER_MINUTE: '10000000',
  });
}

/** The service's two keys; a process started on the bench's database needs the same ones. */
export interface BenchKeys {
  signing: Buffer;
  encryption: Buffer;
}

export function containerFor(
  config: Config,
  db: Db,
  tracing?: Tracing,
  keys: BenchKeys = { signing: randomBytes(32), encryption: randomBytes(32) },
): Promise<Container> {
  return createContainer({
    tracing,
    config,
    db,
    clock: systemClock,
    signingKey: keys.signing,
    encryptionKey: keys.encryption,
    warn: (message, error) => console.error(message, error),
  });
}

export interface FirstStart {
  config: Config;
  db: Db;
  container: Container;
  openMs: number;
  migrateMs: number;
  prepareMs: number;
}

const since = (start: number) => performance.now() - start;

/**
 * A first start on a fresh embedded database in a new DATA_DIR, timed step by step as `main` runs it: a copy
 * of the database the build prepared (`npm run build`), or, without one, a database created here.
 */
export async function firstStart(): Promise<FirstStart> {
  const config = benchConfig();
  let start = performance.now();
  const db = await openDatabase({ dataDir: config.dataDir, template: preparedEmbeddedDatabase() });
  const openMs = since(start);
  start = performance.now();
  await migrate(db);
  const migrateMs = since(start);
  const container = await containerFor(config, db);
  start = performance.now();
  await container.prepare();
  return { config, db, container, openMs, migrateMs, prepareMs: since(start) };
}

export async function listen(
  container: Container,
  logLevel: string,
  tracing?: Tracing,
): Promise<{ app: FastifyInstance; base: string }> {
  // As `main` writes its logs: asynchronously.
  const logStream = logDestination('/dev/null');
  const app = await buildApp({ container, logLevel, logStream, tracing });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, base };
}

/** A company, a credential and a partner token, through the admin API and the token endpoint. */
export async function partnerToken(app: FastifyInstance): Promise<string> {
  const admin = { authorization: `Bearer ${benchAdminToken}` };
  const company = (
    await app.inject({ method: 'POST', url: '/admin/companies', headers: admin, payload: { name: 'Bench Autos' } })
  ).json();
  const credential = (
    await app.inject({ method: 'POST', url: `/admin/companies/${company.id}/credentials`, headers: admin })
  ).json();
  const token = await app.inject({ method: 'POST', url: '/auth/token', payload: credential });
  if (token.statusCode !== 200) throw new Error(`no partner token: ${token.statusCode} ${token.body}`);
  return token.json().access_token as string;
}
