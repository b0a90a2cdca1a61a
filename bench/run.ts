/**
 * `npm run bench`: figures of the service on this machine (see bench/README.md).
 *   1. first start: a fresh embedded database, migrations, importing both shipped catalogs;
 *   2. memory with both catalogs loaded;
 *   3. catalog reads under load, each against a bare Fastify route answering the same bytes.
 *   4. the lead write path (write-path.ts).
 * Load sections are named functions in `sections` below; `npm run bench -- reads` runs one of them
 * (after the first start, which every run measures). With DATABASE_URL the load runs against a fresh
 * schema on that server.
 */
import os from 'node:os';
import { rmSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { createCatalogStore } from '../src/catalogs/catalog-store.ts';
import type { Container } from '../src/composition.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-database.ts';
import { recordAnswer, startBareServer } from './bare-server.ts';
import { compareInRounds, defaults, measure, type Measurement } from './measure.ts';
import { containerFor, firstStart, listen, partnerToken } from './service.ts';
import { leadWritePath } from './write-path.ts';
import { productionShape } from './production-shape.ts';
import { leadListScale } from './lead-list-scale.ts';
import { webhookLag } from './webhook-lag.ts';
import { runtimeStarts } from './runtime.ts';

const api = '/mx/b2b/autofin/api';
const logLevel = process.env.LOG_LEVEL ?? 'info';
// Catalog reads of one embedded instance against the bare route: at least 0.7, aiming at 0.8.
const targetRatio = 0.7;
const aimRatio = 0.8;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const width = 38;
const line = (label: string, value: string, note = '') => console.log(`  ${label.padEnd(width)}${value.padStart(8)}  ${note}`);

export interface BenchContext {
  app: FastifyInstance;
  container: Container;
  base: string;
  /** A fresh company's bearer token, and the headers carrying it. */
  token: string;
  partner: Record<string, string>;
}

async function reportFirstStart() {
  const started = await firstStart();
  const vehicles = await started.container.catalogs.repository.meta('vehicles');
  const zips = await started.container.catalogs.repository.meta('zipCodes');
  console.log('\nfirst start on a fresh embedded database (what `npm start` does the first time)');
  line('open (initdb) + lock', seconds(started.openMs));
  line('migrations', seconds(started.migrateMs));
  line('container.prepare() (catalog import)', seconds(started.prepareMs), `${vehicles?.rowCount} versions, ${zips?.rowCount} settlements`);
  line('total', seconds(started.openMs + started.migrateMs + started.prepareMs));
  return started;
}

async function reportMemory(container: Container) {
  gc();
  const loaded = process.memoryUsage();
  // The index alone: a second store loaded from the same tables, measured as the heap it adds.
  const store = createCatalogStore();
  await store.loadFromDatabase(container.catalogs.repository);
  gc();
  const indexBytes = process.memoryUsage().heapUsed - loaded.heapUsed;
  console.log('\nmemory with both catalogs loaded (after a GC; the embedded engine lives in this process)');
  line('resident set (RSS)', mib(loaded.rss));
  line('JS heap used', mib(loaded.heapUsed), `of ${mib(loaded.heapTotal)} allocated`);
  line('of which the catalog index', mib(indexBytes), 'one store, as served');
  line('outside the JS heap (WASM, buffers)', mib(loaded.external + loaded.arrayBuffers), 'external + arrayBuffers');
  return store.isLoaded(); // keeps `store` alive until the figures are read
}

const readRounds = 7;

function table(rows: { m: Measurement; bare: Measurement; ratio: number; ratios: number[] }[]) {
  console.log(`\nreads under load: autocannon, ${defaults.connections} connections, ${readRounds} alternating rounds of ${defaults.durationSeconds} s (each after a ${defaults.warmupSeconds} s warm-up), medians`);
  console.log(`  ${'request'.padEnd(width)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'µs/req'.padStart(8)}${'non-2xx'.padStart(9)}${'errors'.padStart(8)}`);
  for (const { m, bare, ratio, ratios } of rows) {
    for (const r of [m, bare]) {
      const rps = Math.round(r.requestsPerSecond).toLocaleString('en');
      const micros = r.serverMicrosPerRequest.toFixed(0);
      console.log(`  ${r.name.padEnd(width)}${rps.padStart(8)}${String(r.p50Ms).padStart(8)}${String(r.p99Ms).padStart(8)}${micros.padStart(8)}${String(r.non2xx).padStart(9)}${String(r.errors).padStart(8)}`);
    }
    const verdict = ratio >= targetRatio ? 'meets' : 'below';
    const each = ratios.map((x) => x.toFixed(2)).join(', ');
    console.log(`  ${'  ratio catalog / bare'.padEnd(width)}${ratio.toFixed(2).padStart(8)}  ${verdict} the target ${targetRatio}, aim ${aimRatio} (rounds: ${each})`);
  }
}

/** Catalog reads: each request against its own recorded answer served by the bare route. */
async function catalogReads(ctx: BenchContext) {
  const cases = [
    { name: 'GET brands of 2020', path: `${api}/catalogs/years/2020/brands`, bare: '/brands' },
    { name: 'GET zip-code 06700', path: `${api}/catalogs/zip-code/06700`, bare: '/zip' },
  ];
  const recorded = [];
  for (const c of cases) {
    const res = await ctx.app.inject({ method: 'GET', url: c.path, headers: ctx.partner });
    if (res.statusCode !== 200) throw new Error(`${c.path}: ${res.statusCode} ${res.body}`);
    recorded.push(recordAnswer(c.bare, res));
  }
  const bare = await startBareServer(recorded);
  try {
    const rows = [];
    for (const c of cases) {
      // The bare route gets the same request (bearer token included) and sends the same bytes.
      const options = { headers: ctx.partner };
      const compared = await compareInRounds(
        readRounds,
        () => measure(c.name, `${ctx.base}${c.path}`, options),
        () => measure('  bare Fastify, same answer', `${bare.base}${c.bare}`, options),
      );
      rows.push({ m: compared.a, bare: compared.b, ratio: compared.ratio, ratios: compared.ratios });
    }
    table(rows);
  } finally {
    await bare.app.close();
  }
}

/** Load sections, run in order against one listening service; `npm run bench -- writes` runs only that one. */
export const sections: Record<string, (ctx: BenchContext) => Promise<void>> = {
  reads: catalogReads,
  writes: (ctx) => leadWritePath(ctx, logLevel),
  webhooks: webhookLag,
};

/** Modes that set up their own service processes (a file each): `npm run bench -- production`. */
export const modes: Record<string, () => Promise<void>> = {
  production: productionShape,
  'lead-list': leadListScale,
  runtime: runtimeStarts,
};

async function main() {
  const chosen = process.argv.slice(2);
  const mode = chosen.find((name) => name in modes);
  if (mode) {
    const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
    console.log(`autofin bench, mode ${mode}: Node ${process.version}, ${os.cpus().length} CPUs, load average ${load}`);
    await modes[mode]();
    return;
  }
  const unknown = chosen.filter((name) => !(name in sections));
  if (unknown.length > 0) throw new Error(`unknown bench section ${unknown.join(', ')}: choose from ${Object.keys(sections).join(', ')}`);
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`autofin bench: Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load average ${load}, log level ${logLevel} to /dev/null`);
  console.log('the service and the bare Fastify reference run in this process; autocannon runs in a worker thread');
  const started = await reportFirstStart();
  await reportMemory(started.container);

  let container = started.container;
  let database: TestDatabase | undefined;
  if (process.env.DATABASE_URL) {
    await started.container.close();
    await started.db.close();
    database = await createTestDatabase();
    container = await containerFor(started.config, database.db);
    await container.prepare();
  }
  console.log(`\nengine under load: ${container.db.engine}${database ? ' (a fresh schema on DATABASE_URL)' : ' (the database just created)'}`);
  const { app, base } = await listen(container, logLevel);
  try {
    const token = await partnerToken(app);
    const ctx: BenchContext = { app, container, base, token, partner: { authorization: `Bearer ${token}` } };
    for (const [name, section] of Object.entries(sections)) {
      if (chosen.length === 0 || chosen.includes(name)) await section(ctx);
    }
  } finally {
    await app.close();
    await container.close();
    if (database) await database.drop();
    else await started.db.close();
    rmSync(started.config.dataDir, { recursive: true, force: true });
  }
}

await main();
