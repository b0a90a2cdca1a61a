/**
 * Starts a worker thread on one of the service's worker modules, wherever the service runs from.
 * From its sources (tests, the CLI), the module is `src/<name>.ts`, started through
 * typescript-worker.mjs, which registers tsx in the new thread. Bundled (`npm start`), the module is
 * `dist/<file name>.js`, a bundle of its own that scripts/build.mjs writes beside dist/main.js.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { basename } from 'node:path';
import { projectFile } from './project-files.ts';

/** This module's own URL ends in .ts only when the service runs from its sources. */
const fromSources = import.meta.url.endsWith('.ts');

/**
 * The entry of a worker thread running a TypeScript module from its sources: give the module's URL
 * as the worker's argv (the bench starts its load generators so).
 */
export const typescriptWorker: URL = projectFile('src/shared/typescript-worker.mjs');

/** The bundle of a worker module, as scripts/build.mjs names it: its file name, in dist/. */
export const bundledWorkerFile = (name: string): string => `dist/${basename(name)}.js`;

/** `name`: the module's path under src/ without its extension, e.g. 'catalogs/catalog-parse-worker'. */
export function startWorker(name: string, options: WorkerOptions = {}): Worker {
  if (!fromSources) return new Worker(projectFile(bundledWorkerFile(name)), options);
  const module = projectFile(`src/${name}.ts`).href;
  return new Worker(typescriptWorker, { ...options, argv: [module] });
}
