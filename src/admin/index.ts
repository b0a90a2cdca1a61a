/** What other modules use of the admin module. */
export { adminRoutes } from './admin.routes.ts';
export { catalogsAdminRoutes, catalogBodyLimitBytes } from './catalogs-admin.routes.ts';
