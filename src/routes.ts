/**
 * The route plugins of every module, in the order the app registers them (app.ts): the public
 * ones, the admin API (with ADMIN_TOKEN), the operator console, then the partner API.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { adminRoutes, catalogsAdminRoutes } from './admin/index.ts';
import { auditRoutes, type AuditService } from './audit/index.ts';
import { authRoutes, requireAuth, type AuthService } from './auth/index.ts';
import { backupRoutes } from './backup/index.ts';
import { catalogsRoutes, type CatalogsModule } from './catalogs/index.ts';
import type { CompaniesService } from './companies/index.ts';
import type { Config } from './config/index.ts';
import { consolePlugin } from './console/index.ts';
import { apiPrefix, type RateLimiter } from './http/index.ts';
import type { Clock } from './shared/index.ts';
import { keysRoutes, type createKeysService } from './keys/index.ts';
import { leadsRoutes } from './leads/index.ts';
import { lenderLeadsRoutes } from './lender/index.ts';
import { healthRoutes } from './operations/index.ts';
import { operatorsRoutes, type OperatorsService } from './operators/index.ts';
import { outcomesRoutes } from './outcomes/index.ts';
import { sandboxGuideRoute, sandboxRoutes } from './sandbox/index.ts';
import { verificationRoutes } from './verification/index.ts';
import { adminWebhooksRoutes, webhooksRoutes, type WebhooksModule } from './webhooks/index.ts';

export interface AppRoutes {
  public: FastifyPluginAsyncTypebox[];
  /** Empty without ADMIN_TOKEN. */
  admin: FastifyPluginAsyncTypebox[];
  /** Served under /console. */
  console: FastifyPluginAsync;
  /** Served under the API prefix, behind the partner guard. */
  partner: FastifyPluginAsyncTypebox[];
}

/** What the routes serve: the container's services. */
export interface RoutedServices {
  config: Config;
  clock: Clock;
  ping: () => Promise<boolean>;
  limiter: RateLimiter;
  auth: AuthService;
  companies: CompaniesService;
  catalogs: Pick<CatalogsModule, 'store' | 'imports'>;
  leads: Parameters<typeof leadsRoutes>[0]['leads'];
  leadQueries: Parameters<typeof leadsRoutes>[0]['queries'];
  verification: Parameters<typeof verificationRoutes>[0]['verification'];
  sandbox?: Parameters<typeof sandboxRoutes>[0]['sandbox'];
  operators: OperatorsService;
  audit: AuditService;
  lenderLeads: Parameters<typeof lenderLeadsRoutes>[0]['leads'];
  erasure: Parameters<typeof lenderLeadsRoutes>[0]['erasure'];
  outcomes: Parameters<typeof outcomesRoutes>[0]['outcomes'];
  funnel: Parameters<typeof outcomesRoutes>[0]['funnel'];
  console: Omit<Parameters<typeof consolePlugin>[0], keyof ConsoleServices>;
  webhooks: WebhooksModule;
  keys: ReturnType<typeof createKeysService>;
  backup: Parameters<typeof backupRoutes>[0]['backup'];
}

type ConsoleServices = Pick<
  Parameters<typeof consolePlugin>[0],
  'sandbox' | 'lenderLeads' | 'companies' | 'webhooks' | 'catalogs' | 'operators' | 'audit' | 'outcomes' | 'funnel'
>;

export function routesOf(s: RoutedServices): AppRoutes {
  const { config, operators } = s;
  return {
    public: [
      ...(s.sandbox ? [sandboxGuideRoute()] : []),
      healthRoutes({ ping: s.ping }),
      authRoutes({ auth: s.auth, limiter: s.limiter, perMinute: config.tokenRateLimitPerMinute }),
    ],
    admin: config.adminToken ? adminRoutesOf(s, config.adminToken) : [],
    // The operator console (docs/console.md): people sign in with an operator's e-mail and password.
    console: consolePlugin({
      ...s.console,
      sandbox: s.sandbox !== undefined,
      lenderLeads: s.lenderLeads,
      companies: s.companies,
      webhooks: s.webhooks.service,
      catalogs: s.catalogs.imports,
      operators,
      audit: s.audit,
      outcomes: s.outcomes,
      funnel: s.funnel,
    }),
    partner: [
      catalogsRoutes({ store: s.catalogs.store }),
      leadsRoutes({
        leads: s.leads,
        queries: s.leadQueries,
        prefix: apiPrefix,
        catalogs: s.catalogs.store.lookup,
        clock: s.clock,
      }),
      verificationRoutes({ verification: s.verification }),
      // Sandbox environment only: elsewhere the route does not exist (404 / 4044).
      ...(s.sandbox ? [sandboxRoutes({ sandbox: s.sandbox })] : []),
      webhooksRoutes({
        service: s.webhooks.service,
        ownerOf: (request) => requireAuth(request).companyId,
        path: '/webhooks',
        locationPrefix: `${apiPrefix}/webhooks`,
        tags: ['webhooks'],
        security: [{ bearerAuth: [] }],
        operationPrefix: '',
        access: 'partner',
      }),
    ],
  };
}

function adminRoutesOf(s: RoutedServices, adminToken: string): FastifyPluginAsyncTypebox[] {
  const { operators } = s;
  const { imports } = s.catalogs;
  return [
    adminRoutes({ companies: s.companies, adminToken, operators }),
    catalogsAdminRoutes({ imports, adminToken, operators }),
    operatorsRoutes({ operators, adminToken }),
    lenderLeadsRoutes({ leads: s.lenderLeads, erasure: s.erasure, adminToken, operators }),
    outcomesRoutes({ outcomes: s.outcomes, funnel: s.funnel, adminToken, operators }),
    auditRoutes({ audit: s.audit, adminToken, operators }),
    adminWebhooksRoutes({ webhooks: s.webhooks.service, adminToken, operators }),
    keysRoutes({ keys: s.keys, adminToken, operators }),
    backupRoutes({ backup: s.backup, adminToken, operators }),
  ];
}
