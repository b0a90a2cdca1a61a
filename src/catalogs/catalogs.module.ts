/**
 * The catalogs module as the composition root uses it: the in-memory store and its table, their
 * loading before serving, and the refresh job that picks up a catalog another instance imported.
 */
import type { ModuleRoutes } from '../http/index.ts';
import { catalogsRoutes } from './catalogs.routes.ts';
import type { Db } from '../db/index.ts';
import { repeatingJob } from '../jobs/index.ts';
import type { Clock } from '../shared/index.ts';
import type { CatalogKind } from './catalog-file.ts';
import {
  createCatalogStore,
  type CatalogImportResult,
  type CatalogStore,
  type ShippedParsing,
} from './catalog-store.ts';
import { createCatalogsRepository, type CatalogMeta } from './catalogs.repository.ts';

const catalogRefreshMs = 5000;

type Progress = (message: string, fields?: object) => void;

export function createCatalogsModule(deps: {
  db: Db;
  clock: Clock;
  /** A store already loaded (tests share one per process); a fresh one otherwise. */
  store?: CatalogStore;
  warn: (message: string, error?: unknown) => void;
}) {
  const repository = createCatalogsRepository(deps.db, deps.clock);
  const store = deps.store ?? createCatalogStore();

  /** Imports the shipped catalogs a fresh database lacks, and loads the index. */
  async function importOrLoad(progress?: Progress, storeAfter?: Promise<void>, parsing?: ShippedParsing) {
    const started = performance.now();
    const imported = await store.importShippedIfEmpty(repository, {
      onImporting: (kind) => progress?.('importing a shipped catalog', { catalog: kind }),
      storeAfter,
      parsing,
    });
    for (const { kind, rowCount } of imported) progress?.('catalog imported', { catalog: kind, rows: rowCount });
    const ms = Math.round(performance.now() - started);
    progress?.(imported.length > 0 ? 'shipped catalogs ready' : 'catalogs loaded', { ms });
  }

  /** What the admin API and the console do with the catalog tables. */
  const imports: CatalogImports = {
    importFile: (kind, bytes) => store.importFile(repository, kind, bytes),
    meta: (kind) => repository.meta(kind),
  };

  return {
    store,
    imports,
    /** The partner's catalog reads (the admin import routes are the admin module's). */
    routes: { partner: [catalogsRoutes({ store })] } satisfies ModuleRoutes,
    /**
     * Imports the shipped catalogs into a fresh database and loads them. `progress` hears of each
     * catalog import, which takes seconds on a first start. With `deferCatalogs`, the catalog tables
     * are not written until `loadCatalogs()` is called (by `main` once it listens; requests meanwhile
     * are held by catalog-readiness.ts), but the packed forms already stored are read, and the shipped files
     * a fresh database lacks are parsed in a worker thread, from now on. `shippedParsing`: those files
     * already being parsed.
     * The `ms` of the last progress message counts from here.
     */
    async prepare(
      progress?: Progress,
      mode: { deferCatalogs?: boolean; shippedParsing?: ShippedParsing } = {},
    ): Promise<{ loadCatalogs: () => Promise<void> }> {
      let listening = () => {};
      const storeAfter = mode.deferCatalogs ? new Promise<void>((resolve) => (listening = resolve)) : undefined;
      const loading = store.isLoaded() ? Promise.resolve() : importOrLoad(progress, storeAfter, mode.shippedParsing);
      loading.catch(() => undefined); // its failure reaches whoever awaits loadCatalogs()
      const loadCatalogs = () => {
        listening();
        return loading;
      };
      if (!mode.deferCatalogs) await loading;
      return { loadCatalogs };
    },
    // Another instance may import a catalog: it is picked up within a few seconds.
    jobs: [
      repeatingJob('catalog refresh', { everyMs: catalogRefreshMs }, () =>
        store.refreshIfChanged(repository).catch((e) => deps.warn('catalog refresh failed', e)),
      ),
    ],
  };
}

export type CatalogsModule = ReturnType<typeof createCatalogsModule>;
/** An uploaded catalog replaces the stored one (and the store's index); a catalog's meta is read. */
export interface CatalogImports {
  importFile(kind: CatalogKind, bytes: Uint8Array): Promise<CatalogImportResult>;
  meta(kind: CatalogKind): Promise<CatalogMeta | undefined>;
}
