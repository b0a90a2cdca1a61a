/** What other modules use of the catalogs module. */
export { CatalogFileError, type CatalogKind, catalogKinds } from './catalog-file.ts';
export type { CatalogLookup } from './catalog-lookup.ts';
export { holdUntilCatalogsLoaded } from './catalog-readiness.ts';
export { type CatalogImportResult, type CatalogStore, parseShippedCatalogs } from './catalog-store.ts';
export type { CatalogMeta } from './catalogs.repository.ts';
export { catalogsRoutes } from './catalogs.routes.ts';
export { createCatalogsModule, type CatalogImports } from './catalogs.module.ts';
