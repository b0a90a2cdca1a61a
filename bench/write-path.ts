/**
 * The lead write path section of `npm run bench`: leads created and filled (create + six sections)
 * per second on the embedded database and on PostgreSQL, next to pgbench's single-row insert rate
 * on the same PostgreSQL at the same concurrency, measured in the same run.
 */
import type { FastifyInstance } from 'fastify';
import type { Container } from '../src/composition.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { measureLeadWrites, pgbenchInsertRate, type WriteResult } from './lead-writes.ts';
import { benchConfig, containerFor, listen, partnerToken } from './service.ts';

export const writeConcurrency = 8;
const writeSeconds = 5;
const targetRatio = 0.35;
const defaultPostgres = 'postgres://postgres@127.0.0.1:5432/test';

interface Target {
  app: FastifyInstance;
  container: Container;
  base: string;
  token: string;
}

function row(label: string, r: WriteResult) {
  const n = (v: number) => Math.round(v).toLocaleString('en').padStart(9);
  console.log(`  ${label.padEnd(34)}${n(r.leadsPerSecond)}${n(r.requestsPerSecond)}${r.p99Ms.toFixed(1).padStart(9)}${String(r.errors).padStart(8)}`);
}

/** A second service on a fresh schema of PostgreSQL, unless the load already runs there. */
async function onPostgres(url: string, logLevel: string): Promise<{ target: Target; close(): Promise<void> }> {
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  const database = await createTestDatabase().finally(() => {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  });
  const container = await containerFor(benchConfig(), database.db);
  await container.prepare();
  const { app, base } = await listen(container, logLevel);
  const token = await partnerToken(app);
  return {
    target: { app, container, base, token },
    async close() {
      await app.close();
      await container.close();
      await database.drop();
    },
  };
}

export async function leadWritePath(ctx: Target, logLevel: string): Promise<void> {
  console.log(`\nlead write path: ${writeConcurrency} concurrent partners, each creating a lead and saving its six sections (7 requests), ${writeSeconds} s`);
  console.log(`  ${'engine'.padEnd(34)}${'leads/s'.padStart(9)}${'req/s'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}`);
  const url = process.env.DATABASE_URL ?? defaultPostgres;
  let postgres: Awaited<ReturnType<typeof onPostgres>> | undefined;
  let pg: WriteResult;
  if (ctx.container.db.engine === 'pglite') {
    row('embedded (PGlite)', await measureLeadWrites(ctx.base, ctx.token, writeConcurrency, writeSeconds));
    try {
      postgres = await onPostgres(url, logLevel);
    } catch (error) {
      console.log(`  PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//')} unreachable: ${(error as Error).message}`);
      return;
    }
    pg = await measureLeadWrites(postgres.target.base, postgres.target.token, writeConcurrency, writeSeconds);
  } else {
    pg = await measureLeadWrites(ctx.base, ctx.token, writeConcurrency, writeSeconds);
  }
  try {
    row('PostgreSQL', pg);
    const tps = pgbenchInsertRate(url, writeConcurrency, writeSeconds);
    if (tps === undefined) {
      console.log('  pgbench unavailable: no reference rate');
      return;
    }
    console.log(`  ${'pgbench single-row inserts'.padEnd(34)}${Math.round(tps).toLocaleString('en').padStart(18)} tps, ${writeConcurrency} clients`);
    const ratio = pg.requestsPerSecond / tps;
    console.log(`  ${'ratio requests / pgbench inserts'.padEnd(34)}${ratio.toFixed(2).padStart(18)}  ${ratio >= targetRatio ? 'meets' : 'below'} the target ${targetRatio}`);
  } finally {
    await postgres?.close();
  }
}
