#!/usr/bin/env node
// Runs every test file (src/**/*.test.ts, test/**/*.test.ts) with node:test through tsx, after
// preparing the template database. Node 20 does not expand globs, so the list is built here; an
// empty list is a failure, never a silent pass.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) find(path, out);
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const args = process.argv.slice(2);
const files = args.length > 0 ? args : [...find('src'), ...find('test')].sort();
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
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=120000', ...files],
  { stdio: 'inherit' },
);
process.exit(run.status ?? 1);
