#!/usr/bin/env node
// Compiles the service to JavaScript in dist/ (src/main.ts and what it imports, tsconfig.build.json),
// with the files it reads beside its modules: the SQL migrations and the console's stylesheet.
// `npm start` runs dist/main.js, so a start loads plain JavaScript instead of compiling the
// TypeScript sources again (docs/performance.md, "Start and memory").
// `--if-stale` builds only when a source is newer than the last build: `npm start` runs it so, and
// the tests that start whole processes, so neither runs an older build than the sources.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = new URL('../', import.meta.url).pathname;
const dist = join(root, 'dist');
const stamp = join(dist, '.built');
const copied = ['db/migrations', 'console/assets'];

/** The newest modification time among the sources and the build's configuration. */
function newestSource(dir = join(root, 'src'), newest = 0) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = newestSource(path, newest);
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function stale() {
  if (!existsSync(stamp)) return true;
  const configs = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map((f) => statSync(join(root, f)).mtimeMs);
  return Math.max(newestSource(), ...configs) > statSync(stamp).mtimeMs;
}

if (process.argv.includes('--if-stale') && !stale()) process.exit(0);

const started = performance.now();
console.log('compiling the service to dist/ (npm run build)…');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compile = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (compile.status !== 0) {
  console.error('build failed: dist/ was not updated');
  process.exit(compile.status ?? 1);
}
for (const dir of copied) {
  rmSync(join(dist, dir), { recursive: true, force: true });
  cpSync(join(root, 'src', dir), join(dist, dir), { recursive: true });
}
writeFileSync(stamp, `${new Date().toISOString()}\n`);
console.log(`compiled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
