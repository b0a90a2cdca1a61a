/**
 * What a module serves: its route plugins, by where the app registers them (app.ts). Each module's
 * factory returns its own; src/routes.ts lists the modules in order.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { OperatorResolver } from './admin-guard.ts';

type Plugin = FastifyPluginAsyncTypebox | FastifyPluginAsync;

export interface ModuleRoutes {
  /** Served without a token (health, the token endpoint, the sandbox guide). */
  public?: Plugin[];
  /** The admin API: served only with ADMIN_TOKEN, behind the admin guard. */
  admin?: Plugin[];
  /** Served under the API prefix, behind the partner guard. */
  partner?: Plugin[];
}

/** How an admin route checks its caller: the admin token (absent: there is no admin API) and operator keys. */
export interface AdminAccess {
  adminToken: string | undefined;
  operators: OperatorResolver;
}

/** The admin routes `make` gives, or none without an admin token. */
export function adminRoutesOf(
  access: AdminAccess,
  make: (guard: { adminToken: string; operators: OperatorResolver }) => Plugin[],
): Plugin[] {
  return access.adminToken ? make({ adminToken: access.adminToken, operators: access.operators }) : [];
}
