/**
 * Holds the catalog index in force. The database is the source of truth; the index is rebuilt
 * from it at start, and from the parsed file when an import lands on this instance. Requests
 * read `current()`, which is replaced in one assignment: a request sees the old index or the
 * new one, never half of each. Until the first index is in force, requests wait for `loaded()`
 * (the service may listen while the catalogs load). Both catalogs' rendered bodies share one
 * render cache and its byte budget.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { catalogKinds, type CatalogKind } from './catalog-file.ts';
import { parseCatalogInWorker } from './catalog-parsing.ts';
import type { StoredCatalog } from './catalog-stored-form.ts';
import { packSnapshot, unpackCatalog } from './catalog-packed.ts';
import {
  vehicleIndexOfPacked,
  zipIndexOfPacked,
  type CatalogIndex,
  type VehicleIndex,
  type ZipIndex,
} from './catalog-index.ts';
import { RenderCache } from './render-cache.ts';
import { createCatalogLookup, type CatalogLookup } from './catalog-lookup.ts';
import type { CatalogsRepository } from './catalogs.repository.ts';
import { projectFile } from '../shared/index.ts';

/** The catalogs shipped with the service, found from the project's folder so any working directory works. */
export const shippedCatalogDir: URL = projectFile('catalog-data/');

export const shippedCatalogFiles: Readonly<Record<CatalogKind, string>> = {
  vehicles: 'mx-vehicles.csv.gz',
  zipCodes: 'mx-zip-codes.csv.gz',
};

export interface CatalogImportResult {
  kind: CatalogKind;
  rowCount: number;
  sha256: string;
}

export interface CatalogStore {
  /** The index in force. Throws before the first load: serving empty catalogs would answer 404s. */
  current(): CatalogIndex;
  isLoaded(): boolean;
  /** Resolves once both catalogs are in force (at once when they are). */
  loaded(): Promise<void>;
  /** The cache of rendered bodies (its size is a figure of docs/performance.md). */
  readonly renderCache: RenderCache;
  /** Reads through `current()` on every call, so it follows imports. */
  readonly lookup: CatalogLookup;
  /** Builds the index from the tables (the usual start). */
  loadFromDatabase(repo: CatalogsRepository): Promise<CatalogIndex>;
  /** First start: imports each shipped file whose catalog was never imported, then loads the rest. */
  importShippedIfEmpty(repo: CatalogsRepository, options?: ShippedImportOptions): Promise<CatalogImportResult[]>;
  /**
   * Parses in a worker thread (rejects with CatalogFileError), replaces the catalog in one
   * transaction, swaps the index.
   */
  importFile(repo: CatalogsRepository, kind: CatalogKind, bytes: Uint8Array): Promise<CatalogImportResult>;
  /** Reloads a catalog another instance imported (compares the sha256 in catalog_meta). */
  refreshIfChanged(repo: CatalogsRepository): Promise<CatalogKind[]>;
}

export interface ShippedImportOptions {
  /** Where the shipped files are (default: the project's catalog-data/). */
  dir?: URL | string;
  /** Hears of each catalog about to be imported. */
  onImporting?: (kind: CatalogKind) => void;
  /**
   * Nothing is written to the catalog tables before this settles; the shipped files are parsed, and
   * the packed forms of the catalogs already imported are read, meanwhile (`main` lets it settle once the
   * service listens, so both run while the app is built).
   */
  storeAfter?: Promise<unknown>;
  /**
   * The shipped files already being parsed (`parseShippedCatalogs`, started by `main` while a new
   * embedded database is created); used when they are the catalogs the database lacks.
   */
  parsing?: ShippedParsing;
}

/** Shipped files being parsed, in the order they are parsed and stored. */
export type ShippedParsing = Promise<{ kind: CatalogKind; parsed: Promise<StoredCatalog> }[]>;

interface Part<I> {
  index: I;
  /** sha256 of the file the index was built from ('' when the catalog was never imported). */
  sha256: string;
}

interface Parts {
  vehicles?: Part<VehicleIndex>;
  zipCodes?: Part<ZipIndex>;
}

export class CatalogsNotLoadedError extends Error {
  constructor() {
    super('the catalogs are not loaded yet');
    this.name = 'CatalogsNotLoadedError';
  }
}

/** A catalog's part of the index, from the packed form of an import. */
function partOf(kind: CatalogKind, sha256: string, packed: Uint8Array, cache: RenderCache): Parts {
  const catalog = unpackCatalog(packed);
  return kind === 'vehicles'
    ? { vehicles: { sha256, index: vehicleIndexOfPacked(catalog, cache) } }
    : { zipCodes: { sha256, index: zipIndexOfPacked(catalog, cache) } };
}

/** Builds a catalog's index from the packed form of its last import (an empty one when never imported). */
async function loadPart(repo: CatalogsRepository, kind: CatalogKind, cache: RenderCache): Promise<Parts> {
  const stored = await repo.loadPacked(kind);
  return partOf(kind, stored?.sha256 ?? '', stored?.packed ?? packSnapshot('', kind), cache);
}

/** Stores a catalog in one transaction and builds its part of the index from its packed form, as a restart does. */
async function storePart(
  repo: CatalogsRepository,
  catalog: StoredCatalog,
  cache: RenderCache,
): Promise<{ result: CatalogImportResult; part: Parts }> {
  const { kind, rowCount, sha256, packed } = catalog;
  await repo.replace(catalog);
  return { result: { kind, rowCount, sha256 }, part: partOf(kind, sha256, packed, cache) };
}

function shippedFile(dir: URL | string, kind: CatalogKind): URL | string {
  return typeof dir === 'string' ? join(dir, shippedCatalogFiles[kind]) : new URL(shippedCatalogFiles[kind], dir);
}

/**
 * Starts parsing the shipped files of `kinds` in a worker thread, one after the other, the larger
 * first, so that each can be stored while the next one is parsed. Parsing both at once was slower on
 * two cores: the main thread, which gets the service ready meanwhile, and two parsers take turns on them.
 */
export function parseShippedCatalogs(
  kinds: readonly CatalogKind[] = catalogKinds,
  dir: URL | string = shippedCatalogDir,
): ShippedParsing {
  const parsing = (async () => {
    const read = async (kind: CatalogKind) => ({ kind, bytes: await readFile(shippedFile(dir, kind)) });
    const files = await Promise.all(kinds.map(read));
    files.sort((a, b) => b.bytes.length - a.bytes.length);
    let previous: Promise<unknown> = Promise.resolve();
    return files.map(({ kind, bytes }) => {
      const parsed = previous.then(() => parseCatalogInWorker(kind, bytes));
      parsed.catch(() => undefined); // awaited by the importer; a failure of one must not leave the next unhandled
      previous = parsed;
      return { kind, parsed };
    });
  })();
  parsing.catch(() => undefined); // the importer awaits it: an unreadable file fails the import, not the process
  return parsing;
}

const sameKinds = (a: readonly CatalogKind[], b: readonly CatalogKind[]) =>
  a.length === b.length && a.every((kind) => b.includes(kind));

/** Imports each shipped catalog never imported before; reads the others from the tables. */
async function shippedOrStored(repo: CatalogsRepository, cache: RenderCache, options: ShippedImportOptions) {
  const { dir = shippedCatalogDir, onImporting, storeAfter } = options;
  const imported: CatalogImportResult[] = [];
  const metas = await Promise.all(catalogKinds.map((kind) => repo.meta(kind)));
  const missing = catalogKinds.filter((_, i) => !metas[i]);
  const handedIn = options.parsing && (await options.parsing);
  const parsing =
    handedIn &&
    sameKinds(
      handedIn.map((p) => p.kind),
      missing,
    )
      ? handedIn
      : await parseShippedCatalogs(missing, dir);
  for (const { kind } of parsing) onImporting?.(kind);
  // The stored ones are read at once, side by side (a restart): on PostgreSQL one's query runs while
  // the other's lines are found, and both while the service gets ready to listen.
  const loads = Promise.all(catalogKinds.flatMap((kind, i) => (metas[i] ? [loadPart(repo, kind, cache)] : [])));
  loads.catch(() => undefined); // awaited below, after `storeAfter`: a failure fails the load, not the process
  await storeAfter;
  let update: Parts = Object.assign({}, ...(await loads));
  for (const { parsed } of parsing) {
    const { result, part } = await storePart(repo, await parsed, cache);
    imported.push(result);
    update = { ...update, ...part };
  }
  imported.sort((a, b) => catalogKinds.indexOf(a.kind) - catalogKinds.indexOf(b.kind));
  return { imported, update };
}

/** The catalogs whose last import (catalog_meta) is not the one the index was built from. */
async function changedKinds(repo: CatalogsRepository, parts: Parts): Promise<CatalogKind[]> {
  const changed: CatalogKind[] = [];
  for (const kind of catalogKinds) {
    const sha256 = (await repo.meta(kind))?.sha256 ?? '';
    if (sha256 !== parts[kind]?.sha256) changed.push(kind);
  }
  return changed;
}

/**
 * Runs tasks one at a time. Imports and reloads in this process are serialized so the index
 * always ends as the last commit left the tables (the database orders the commits, but the
 * in-memory swaps that follow them could otherwise cross).
 */
function createSerializer(): <T>(task: () => Promise<T>) => Promise<T> {
  let queue: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };
}

export function createCatalogStore(): CatalogStore {
  let parts: Parts = {};
  let index: CatalogIndex | undefined;
  const serialized = createSerializer();
  const renderCache = new RenderCache();
  let markLoaded: () => void = () => {};
  const firstLoad = new Promise<void>((resolve) => (markLoaded = resolve));

  /** Swaps in the updated parts; the index exists once both catalogs are known. */
  function publish(update: Parts): void {
    parts = { ...parts, ...update };
    if (parts.vehicles && parts.zipCodes) {
      index = Object.freeze({ vehicles: parts.vehicles.index, zipCodes: parts.zipCodes.index });
      markLoaded();
    }
  }

  const current = (): CatalogIndex => {
    if (!index) throw new CatalogsNotLoadedError();
    return index;
  };

  const loadKinds = async (repo: CatalogsRepository, kinds: readonly CatalogKind[]) => {
    let update: Parts = {};
    for (const kind of kinds) update = { ...update, ...(await loadPart(repo, kind, renderCache)) };
    publish(update);
  };

  return {
    current,
    isLoaded: () => index !== undefined,
    loaded: () => firstLoad,
    renderCache,
    lookup: createCatalogLookup(current),
    loadFromDatabase: (repo) => serialized(() => loadKinds(repo, catalogKinds).then(current)),
    importShippedIfEmpty: (repo, options = {}) =>
      serialized(async () => {
        const { imported, update } = await shippedOrStored(repo, renderCache, options);
        publish(update);
        return imported;
      }),
    importFile: (repo, kind, bytes) =>
      serialized(async () => {
        const { result, part } = await storePart(repo, await parseCatalogInWorker(kind, bytes), renderCache);
        publish(part);
        return result;
      }),
    refreshIfChanged: (repo) =>
      serialized(async () => {
        const changed = await changedKinds(repo, parts);
        await loadKinds(repo, changed);
        return changed;
      }),
  };
}
