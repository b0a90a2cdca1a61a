/**
 * `npm run bench`: figures of the service on this machine (see bench/README.md).
 *   1. first start: a fresh embedded database, migrations, importing both shipped catalogs;
 *   2. memory with both catalogs loaded;
 *   3. the lead write path (write-path.ts).
 * Load sections are named functions in `sections` below; `npm run bench -- writes` runs one of them
 * (after the first start, which every run measures). With DATABASE_URL the load runs against a fresh
 * schema on that server. Modes (`modes` below: reads, webhooks, production, lead-list) start what
 * they measure themselves.
 */
import os from 'node:os';
import { rmSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { createCatalogsModule } from '../src/catalogs/index.ts';
import { preparedEmbeddedDatabase } from '../src/db/open-database.ts';
import type { Container } from '../src/composition.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-templates.ts';
import { containerFor, firstStart, listen, partnerToken } from './service.ts';
import { leadWritePath } from './write-path.ts';
import { productionShape } from './production-shape.ts';
import { leadListScale } from './lead-list-scale.ts';
import { webhookLagMode } from './webhook-lag.ts';
import { readsWithWrk } from './reads-wrk.ts';
import { tracingOverhead } from './tracing-overhead.ts';
import { funnelBench } from './funnel.ts';
import { runtimeStarts } from './runtime.ts';
import { readSteps } from './read-steps.ts';
import { rotationBench } from './rotation.ts';
import { documentUploads } from './documents.ts';
import { scaleBench } from './scale.ts';

const logLevel = process.env.LOG_LEVEL ?? 'info';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const width = 38;
const line = (label: string, value: string, note = '') =>
  console.log(`  ${label.padEnd(width)}${value.padStart(8)}  ${note}`);

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
  const vehicles = await started.container.catalogs.imports.meta('vehicles');
  const zips = await started.container.catalogs.imports.meta('zipCodes');
  console.log('\nfirst start on a fresh embedded database (what `npm start` does the first time)');
  line(
    preparedEmbeddedDatabase() ? 'open (copy of the prepared database) + lock' : 'open (initdb) + lock',
    seconds(started.openMs),
  );
  line('migrations', seconds(started.migrateMs));
  line(
    preparedEmbeddedDatabase() ? 'container.prepare() (catalog load)' : 'container.prepare() (catalog import)',
    seconds(started.prepareMs),
    `${vehicles?.rowCount} versions, ${zips?.rowCount} settlements`,
  );
  line('total', seconds(started.openMs + started.migrateMs + started.prepareMs));
  return started;
}

async function reportMemory(container: Container) {
  // Two collections: after one, `external` still moved by 10–20 MiB between readings (what the first
  // leaves to finalizers and weak callbacks is freed by the next).
  const collect = () => {
    gc();
    gc();
  };
  collect();
  const loaded = process.memoryUsage();
  // The index alone: a second catalogs module loaded from the same tables, measured as what it adds.
  const second = createCatalogsModule({ db: container.db, clock: container.clock, warn: () => {} });
  await second.prepare();
  collect();
  // The index keeps its packed bytes and typed arrays in ArrayBuffers, outside V8's heap: both count.
  // `external` holds the ArrayBuffers and the embedded engine's memory, which moves on its own while it
  // answers the load's queries; the ArrayBuffers are what the index adds there.
  const after = process.memoryUsage();
  const indexHeap = after.heapUsed - loaded.heapUsed;
  const indexBytes = indexHeap + after.arrayBuffers - loaded.arrayBuffers;
  console.log('\nmemory with both catalogs loaded (after a GC; the embedded engine lives in this process)');
  line('resident set (RSS)', mib(loaded.rss));
  line('JS heap used', mib(loaded.heapUsed), `of ${mib(loaded.heapTotal)} allocated`);
  line('of which the catalog index', mib(indexBytes), `one store, as served (${mib(indexHeap)} of it in the JS heap)`);
  line('outside the JS heap (WASM, buffers)', mib(loaded.external), 'external (ArrayBuffers included)');
  return second.store.isLoaded(); // keeps the second index alive until the figures are read
}

/** Load sections, run in order against one listening service; `npm run bench -- writes` runs only that one. */
export const sections: Record<string, (ctx: BenchContext) => Promise<void>> = {
  writes: (ctx) => leadWritePath(ctx, logLevel),
};

/** Modes that set up their own service processes (a file each): `npm run bench -- production`. */
export const modes: Record<string, () => Promise<void>> = {
  production: productionShape,
  'lead-list': leadListScale,
  webhooks: webhookLagMode,
  reads: readsWithWrk,
  'read-steps': readSteps,
  tracing: tracingOverhead,
  funnel: funnelBench,
  runtime: runtimeStarts,
  rotation: rotationBench,
  documents: documentUploads,
  scale: scaleBench,
};

async function main() {
  const chosen = process.argv.slice(2);
  const mode = chosen.find((name) => name in modes);
  if (mode) {
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(`autofin bench, mode ${mode}: Node ${process.version}, ${os.cpus().length} CPUs, load average ${load}`);
    await modes[mode]();
    return;
  }
  const unknown = chosen.filter((name) => !(name in sections));
  if (unknown.length > 0)
    throw new Error(`unknown bench section ${unknown.join(', ')}: choose from ${Object.keys(sections).join(', ')}`);
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `autofin bench: Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load average ${load}, log level ${logLevel} to /dev/null`,
  );
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
  console.log(
    `\nengine under load: ${container.db.engine}${database ? ' (a fresh schema on DATABASE_URL)' : ' (the database just created)'}`,
  );
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
