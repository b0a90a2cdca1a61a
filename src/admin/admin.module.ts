/**
 * The admin module as the composition root uses it: the admin API's routes for companies, their
 * credentials and affiliates, and catalog imports (the services are the companies and catalogs modules').
 */
import type { CatalogImports } from '../catalogs/index.ts';
import type { CompaniesService } from '../companies/index.ts';
import { adminRoutesOf, type AdminAccess, type ModuleRoutes } from '../http/index.ts';
import { adminRoutes } from './admin.routes.ts';
import { catalogsAdminRoutes } from './catalogs-admin.routes.ts';

export function createAdminModule(deps: { companies: CompaniesService; imports: CatalogImports; access: AdminAccess }) {
  const routes: ModuleRoutes = {
    admin: adminRoutesOf(deps.access, (guard) => [
      adminRoutes({ companies: deps.companies, ...guard }),
      catalogsAdminRoutes({ imports: deps.imports, ...guard }),
    ]),
  };
  return { routes };
}
