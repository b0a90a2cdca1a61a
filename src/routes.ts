/**
 * The route plugins the app registers (app.ts), collected from the modules in the composition root's
 * order: the public ones, the admin API (empty without ADMIN_TOKEN), the operator console, then the
 * partner API. Each module's factory gives its own (http/module-routes.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleRoutes } from './http/index.ts';

type Plugin = NonNullable<ModuleRoutes['public']>[number];

export interface AppRoutes {
  public: Plugin[];
  /** Empty without ADMIN_TOKEN. */
  admin: Plugin[];
  /** Served under /console. */
  console: FastifyPluginAsync;
  /** Served under the API prefix, behind the partner guard. */
  partner: Plugin[];
}

export function routesOf(modules: readonly { routes: ModuleRoutes }[], console: FastifyPluginAsync): AppRoutes {
  return {
    public: modules.flatMap((m) => m.routes.public ?? []),
    admin: modules.flatMap((m) => m.routes.admin ?? []),
    console,
    partner: modules.flatMap((m) => m.routes.partner ?? []),
  };
}
