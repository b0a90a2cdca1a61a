#!/usr/bin/env node
// Runs every test file (src/**/*.test.ts, test/**/*.test.ts) with node:test through tsx, after
// preparing the template database. Node 20 does not expand globs, so the list is built here; an
// empty list is a failure, never a silent pass. The browser tests (test/browser/) run after the others,
// one file at a time with a longer timeout: each drives a headless Chromium, and skips itself, saying
// why, when there is none (BROWSER_TESTS=required makes that a failure).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

// The reliability tests (whole processes, crashes, faults) run apart: `npm run test:reliability`.
const reliabilityDir = join('test', 'reliability');

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
  ? find(reliabilityDir, [], null).sort()
  : args.length > 0
    ? args
    : [...find('src'), ...find('test')].sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const engine = process.env.DATABASE_URL ? 'postgres' : 'pglite';
console.log(`running ${files.length} test files on ${engine}, Node ${process.version}`);

const prepare = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/prepare-test-databases.ts'], {
  stdio: 'inherit',
});
if (prepare.status !== 0) process.exit(prepare.status ?? 1);
// The tests that start whole processes run the build, as `npm start` does: made here once, before
// files run side by side, so that two of them never write dist/ at the same time.
const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const browserDir = join('test', 'browser');
const isBrowser = (file) => relative(process.cwd(), resolve(file)).startsWith(browserDir + sep);

/**
 * V8's young generation as `npm start` sets it (package.json): the tests that build the app in their own
 * process, and measure its memory, run with the heap the service has.
 */
const serviceHeap = ['--max-semi-space-size=4'];

/** One node:test run over `list`; answers its exit status (0 for an empty list). */
function runFiles(list, concurrency, timeoutMs) {
  if (list.length === 0) return 0;
  const run = spawnSync(
    process.execPath,
    [
      ...serviceHeap,
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${concurrency}`,
      `--test-timeout=${timeoutMs}`,
      ...list,
    ],
    { stdio: 'inherit' },
  );
  return run.status ?? 1;
}

// A reliability file starts and kills whole processes: one file at a time, each test within 15 minutes.
// Otherwise both batches always run, and either one failing fails the run.
if (reliability) process.exit(runFiles(files, 1, 900_000));
const others = runFiles(
  files.filter((f) => !isBrowser(f)),
  2,
  120_000,
);
const browser = runFiles(files.filter(isBrowser), 1, 300_000);
process.exit(others || browser);
