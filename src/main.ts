/**
 * The process: configuration, database, migrations, the app, listening, and a graceful stop on
 * SIGTERM/SIGINT (stop accepting, finish requests in flight, close the database).
 */
import { loadConfig, ConfigError } from './config/index.ts';
import { DataDirLockedError, openDatabase, migrate, preparedEmbeddedDatabase } from './db/index.ts';
import { loadOrCreateKey, systemClock, logDestination, loggerOptions } from './shared/index.ts';
import { createContainer } from './composition.ts';
import { MissingKeysError } from './keys/index.ts';
import { buildApp } from './app.ts';
import { holdUntilCatalogsLoaded, parseShippedCatalogs } from './catalogs/index.ts';
import { printSandboxCredentials, createDemoOperator } from './sandbox/index.ts';
import { loadTracing } from './tracing/index.ts';
import pino from 'pino';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:net';

async function start(): Promise<void> {
  const config = loadConfig();
  const { logLevel } = config;
  // Before the database is opened: the `pg` instrumentation must patch the driver first.
  const tracing = await loadTracing(process.env);
  // Standard output, written asynchronously 16 KiB at a time (shared/logging.ts); flushed on stop.
  const logStream = logDestination(1);
  const logger = pino(loggerOptions(logLevel, tracing?.logFields), logStream);
  // Earlier versions copied the sandbox's PIN messages, recipients in clear, to this file: a copy that
  // erasure could not reach. The messages are kept encrypted in the database (docs/sandbox.md).
  rmSync(join(config.dataDir, 'sandbox-outbox.jsonl'), { force: true });
  const firstStart = !config.databaseUrl && !existsSync(join(config.dataDir, 'pgdata'));
  // A first start copies the embedded database the build prepared, migrated and with the shipped catalogs
  // (src/embedded-template.ts). Without one (the sources run without a build) it creates the database, and
  // the shipped files are parsed, in a worker thread, meanwhile.
  const template = firstStart ? preparedEmbeddedDatabase() : undefined;
  if (firstStart && template) logger.info({ dataDir: config.dataDir }, 'first start: copying the prepared database');
  else if (firstStart)
    logger.info({ dataDir: config.dataDir }, 'first start: creating the embedded database (a few seconds)');
  const shippedParsing = firstStart && !template ? parseShippedCatalogs() : undefined;
  const opened = performance.now();
  const db = await openDatabase({ ...config, template });
  await migrate(db);
  const ms = Math.round(performance.now() - opened);
  if (firstStart) logger.info({ ms }, `database ${template ? 'copied' : 'created'} and migrated`);
  const container = await createContainer({
    config,
    db,
    clock: systemClock,
    signingKey: loadOrCreateKey(config.dataDir, 'token-signing', config.tokenSigningKey),
    encryptionKey: loadOrCreateKey(config.dataDir, 'data-encryption', config.dataEncryptionKey),
    warn: (message, error) => logger.warn({ err: error }, message),
    logger,
    tracing,
  });
  // Stored values that need a key that is not configured refuse the start, rather than answer 500 later.
  // The check is queries: it runs while the app is built, and is awaited before anything else is written.
  const keysChecked = container.keys.checkStored();
  keysChecked.catch(() => undefined); // awaited below; its failure stops the start there
  // The catalogs' packed forms are read from now on, and what a first start imports is written once the service
  // listens; requests wait for them meanwhile (a failure stops it).
  const { loadCatalogs } = await container.prepare((message, fields) => logger.info(fields ?? {}, message), {
    deferCatalogs: true,
    shippedParsing,
  });
  let stopping = false;
  const app = await buildApp({ container, logLevel, logStream, draining: () => stopping, tracing });
  await keysChecked;
  if (config.environment === 'sandbox') {
    const seeded = await container.companies.seedSandbox();
    if (seeded) printSandboxCredentials({ ...seeded, operator: await createDemoOperator(container.operators) }, config);
  }
  app.addHook('onRequest', holdUntilCatalogsLoaded(container.catalogs.store));
  // The background work (src/jobs): webhook delivery, catalog refresh, retention purges, rate-limit sync.
  container.jobs.start();

  const stop = async (signal: string) => {
    if (stopping) return;
    // From here every request is answered 503 with `Connection: close`, and every answer closes its
    // connection: keep-alive clients leave on their own instead of having an idle connection closed
    // under a request they are sending. Idle connections left after SHUTDOWN_DRAIN_MS are closed.
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing requests in flight');
    await connectionsClosed(app.server, config.shutdownDrainMs);
    // A keep-alive connection whose request was in flight becomes idle once answered; closing idle
    // connections as they appear keeps the stop from waiting for the clients' keep-alive timeout.
    const sweeper = setInterval(() => app.server.closeIdleConnections(), 100);
    await app.close();
    clearInterval(sweeper);
    // The jobs stop (webhook attempts in flight finish or are released untried), then the container closes,
    // before the database does.
    await container.jobs.stop();
    await container.close();
    await db.close();
    // The spans still batched are exported before the process ends.
    await tracing?.shutdown().catch((error: unknown) => app.log.warn({ err: error }, 'traces not exported'));
    app.log.info('stopped');
    logStream.flushSync();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  // At once: supervisors and people wait for the `Server listening` line, then for the catalogs'.
  logStream.flush();
  await loadCatalogs();
  logStream.flush();
}

/** Resolves once the server has no open connection, or after `timeoutMs`. */
async function connectionsClosed(server: Server, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const count = () => new Promise<number>((resolve) => server.getConnections((error, n) => resolve(error ? 0 : n)));
  while (Date.now() < deadline && (await count()) > 0) await new Promise((resolve) => setTimeout(resolve, 25));
}

start().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof MissingKeysError) {
    console.error(error.message);
  } else {
    console.error('autofin failed to start:', error);
  }
  process.exit(1);
});
