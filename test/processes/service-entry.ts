/**
 * How the tests and the bench start the service as a whole process: as `npm start` does, the build in
 * dist/ (scripts/build.mjs), brought up to date with the sources first, once per test process.
 */
import { execFileSync } from 'node:child_process';

export const projectRoot = new URL('../../', import.meta.url).pathname;

let built = false;

/**
 * The environment `npm start` gives the service before its own settings (package.json's `start`):
 * glibc's allocator keeps allocations of 128 KiB and more out of its heaps, so the memory a start
 * frees goes back to the system (docs/operations.md, "Memory").
 */
export const startEnvironment: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };

/**
 * Node's own options `npm start` gives the service (package.json's `start`): V8's young generation at most
 * 4 MB a half, so what a start allocates does not leave it grown to 32 MB (docs/operations.md, "Memory").
 */
export const startNodeOptions: readonly string[] = ['--max-semi-space-size=4'];

/** The arguments of `node` that run the service: its options, the bundle, built first if a source is newer. */
export function serviceArgs(): string[] {
  if (!built) {
    execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: projectRoot, stdio: 'inherit' });
    built = true;
  }
  return [...startNodeOptions, 'dist/main.js'];
}
