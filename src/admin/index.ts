/** What other modules use of the admin module. */
export { catalogBodyLimitBytes } from './catalogs-admin.routes.ts';
export { createAdminModule } from './admin.module.ts';
