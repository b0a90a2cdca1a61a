#!/usr/bin/env node
// Runs the test files (src/**/*.test.ts, test/**/*.test.ts) with node:test through tsx, after preparing the
// template database and the build. Node 20 does not expand globs, so the list is built here; an empty list
// is a failure, never a silent pass. Three lanes (README, "Test"):
//
// - in process: most files, imported into one process per core (`--test-isolation=none`, sharded), where
//   they share the process's database and keep apart by tenant (test/test-database.ts);
// - whole processes: the files under test/e2e/ and the build's, which start the service as `npm start`
//   does, one file at a time beside the in-process shards;
// - the browser tests (test/browser/), one file at a time with a longer timeout: each drives a headless
//   Chromium, and skips itself, saying why, when there is none (BROWSER_TESTS=required makes that a failure).
// A lane done with its own files takes files of the other two queues (whole processes, browser).
//
// `npm run test:reliability` runs test/reliability/ instead, one file at a time, and the volume tests at their
// full size (test/volume.ts).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import pg from 'pg';

const reliabilityDir = join('test', 'reliability');
const browserDir = join('test', 'browser');
const processDir = join('test', 'e2e');
/**
 * Files outside test/e2e/ that need a process of their own: the build's, which starts the service as a
 * process; and tracing's, whose instrumentation patches modules (pg, undici) as they are first imported,
 * and whose "off" case checks that nothing of it was loaded.
 */
const processFiles = new Set([
  join('test', 'build.test.ts'),
  join('src', 'tracing', 'tracing-json.test.ts'),
  join('src', 'tracing', 'tracing-off.test.ts'),
  join('src', 'tracing', 'tracing-protobuf.test.ts'),
]);
/** Volume tests: small in `npm test`, full size in the reliability run (test/volume.ts). */
const volumeFiles = [
  join('src', 'catalogs', 'catalog-parsing.test.ts'),
  join('src', 'catalogs', 'catalog-store.test.ts'),
  join('src', 'catalogs', 'catalogs.repository.test.ts'),
  join('src', 'lender', 'lead-export.memory.test.ts'),
  join('test', 'openapi-fuzz.test.ts'),
];

function find(dir, out = [], skip = reliabilityDir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (path === skip) continue;
    if (statSync(path).isDirectory()) find(path, out, skip);
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const args = process.argv.slice(2);
const reliability = args[0] === '--reliability';
const files = reliability
  ? [...find(reliabilityDir, [], null).sort(), ...volumeFiles]
  : args.length > 0
    ? args
    : [...find('src'), ...find('test')].sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const engine = process.env.DATABASE_URL ? 'postgres' : 'pglite';
console.log(`running ${files.length} test files on ${engine}, Node ${process.version}`);

// One id for the run: its PostgreSQL schemas start with it, and are dropped at the end.
const run = randomBytes(4).toString('hex');
const env = { ...process.env, AUTOFIN_TEST_RUN: run, ...(reliability ? { AUTOFIN_TEST_VOLUME: 'full' } : {}) };

/** Runs a script of this project with the Node running this one; resolves to its exit status. */
const script = (args) =>
  new Promise((done) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit', env });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
// The template databases, and the build that the tests starting whole processes run, as `npm start`
// does: both made here once, side by side, before files run side by side (so that two of them never
// write dist/ or a template at the same time).
const ready = await Promise.all([
  script(['--import', 'tsx', 'scripts/prepare-test-databases.ts']),
  script(['scripts/build.mjs', '--if-stale']),
]);
const unready = ready.find((s) => s !== 0);
if (unready !== undefined) process.exit(unready);

const inDir = (dir) => (file) => relative(process.cwd(), resolve(file)).startsWith(dir + sep);
const isBrowser = inDir(browserDir);
// Reliability files named on the command line (as .ci/run does on other Node lines) start processes too.
const isProcess = (file) =>
  inDir(processDir)(file) || inDir(reliabilityDir)(file) || processFiles.has(relative(process.cwd(), resolve(file)));

/**
 * V8's young generation as `npm start` sets it (package.json): the tests that build the app in their own
 * process, and measure its memory, run with the heap the service has.
 */
const serviceHeap = ['--max-semi-space-size=4'];
/**
 * The in-process shards build hundreds of apps and databases: with the service's small young generation,
 * objects that live for a test get promoted and collected again as old ones, about a tenth of the shards'
 * CPU. Of their files only the export's memory test compares memory, and only growth with growth (a
 * tenth of the rows against all of them); it runs at full size on the service's heap in
 * `npm run test:reliability`.
 */
const shardHeap = ['--max-semi-space-size=32'];

/** One node:test run; resolves to its exit status. Output is passed through as it comes. */
function node(testArgs, list, heap = serviceHeap) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...heap, '--import', 'tsx', '--test', ...testArgs, ...list], {
      stdio: 'inherit',
      env,
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/** Files one at a time, each in a process of its own. */
const oneByOne = (list, timeoutMs) =>
  list.length === 0 ? 0 : node(['--test-concurrency=1', `--test-timeout=${timeoutMs}`], list);

/**
 * Files imported into `shards` processes side by side, each process running its share one file after
 * another. `--test-force-exit` ends a shard once its tests are done, whatever handle a test left open.
 */
async function inProcess(list, shards, timeoutMs) {
  if (list.length === 0) return 0;
  const count = Math.min(shards, list.length);
  const statuses = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      node(
        ['--test-isolation=none', '--test-force-exit', `--test-shard=${i + 1}/${count}`, `--test-timeout=${timeoutMs}`],
        list,
        shardHeap,
      ),
    ),
  );
  return statuses.find((s) => s !== 0) ?? 0;
}

/** Drops the PostgreSQL schemas this run made (test/test-database.ts names them). */
async function dropRunSchemas() {
  if (!process.env.DATABASE_URL) return;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(`select nspname from pg_namespace where nspname like $1`, [`t\\_${run}\\_%`]);
    for (const { nspname } of rows) await client.query(`drop schema if exists ${nspname} cascade`);
  } finally {
    await client.end();
  }
}

let status;
if (reliability) {
  // A reliability file starts and kills whole processes: one file at a time, each test within 15 minutes.
  status = await oneByOne(files, 900_000);
} else {
  // One shard more than the cores: while a shard waits (a timer, a socket, Chromium), another uses its core.
  const shards = Math.max(1, Number(process.env.TEST_SHARDS) || availableParallelism() + 1);
  // The whole-process files and the browser files are two queues, each with a lane of its own from the
  // start: a browser test spends much of its time waiting on Chromium, a whole-process test on the service it
  // started, and the CPU-bound in-process lane uses those waits. A lane done with its own files takes files
  // of the other queues, one at a time, so no lane sits idle while files are left. Largest files first: the
  // longest runs start earliest. Every file always runs, and any one failing fails the run.
  const bySize = (a, b) => statSync(b).size - statSync(a).size;
  const processQueue = files.filter(isProcess).sort(bySize);
  const browserQueue = files.filter(isBrowser).sort(bySize);
  const take = (queue) => async (laneStatus) => {
    let worst = laneStatus;
    for (let file = queue.shift(); file; file = queue.shift()) {
      worst = (await oneByOne([file], 300_000)) || worst;
    }
    return worst;
  };
  const started = performance.now();
  /** Prints when a lane is done with its own files, in seconds since the files started. */
  const timed = (lane) => (laneStatus) => {
    console.log(`# lane ${lane} done at ${((performance.now() - started) / 1000).toFixed(0)} s`);
    return laneStatus;
  };
  const [inProcessStatus, processStatus, browserStatus] = await Promise.all([
    inProcess(
      files.filter((f) => !isBrowser(f) && !isProcess(f)),
      shards,
      120_000,
    )
      .then(timed('in process'))
      .then(take(processQueue))
      .then(take(browserQueue)),
    take(processQueue)(0).then(timed('processes')).then(take(browserQueue)),
    take(browserQueue)(0).then(timed('browser')).then(take(processQueue)),
  ]);
  status = inProcessStatus || processStatus || browserStatus;
}
await dropRunSchemas();
process.exit(status);
