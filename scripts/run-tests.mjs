#!/usr/bin/env node
// Runs every test file (src/**/*.test.ts, test/**/*.test.ts) with node:test through tsx, after
// preparing the template database. Node 20 does not expand globs, so the list is built here; an
// empty list is a failure, never a silent pass.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
  : args.length > 0 ? args : [...find('src'), ...find('test')].sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const engine = process.env.DATABASE_URL ? 'postgres' : 'pglite';
console.log(`running ${files.length} test files on ${engine}`);

const prepare = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/prepare-test-databases.ts'], { stdio: 'inherit' });
if (prepare.status !== 0) process.exit(prepare.status ?? 1);

const run = spawnSync(
  process.execPath,
  // A reliability file starts and kills whole processes: one file at a time, each within 15 minutes.
  ['--import', 'tsx', '--test', `--test-concurrency=${reliability ? 1 : 2}`, `--test-timeout=${reliability ? 900_000 : 120_000}`, ...files],
  { stdio: 'inherit' },
);
process.exit(run.status ?? 1);
