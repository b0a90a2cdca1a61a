/**
 * Builds the HTTP app from a wired container. It never listens: main, tests and benchmarks all
 * build the same app. Routes are registered explicitly here, so their order is visible.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  schemaValidatorCompiler,
  lazySerializerFactory,
  registerErrorHandler,
  registerRequestValidation,
  clientErrorHandler,
  frameworkErrorHandler,
  registerUnknownRouteHandler,
  registerJsonParser,
  lazyChildLogger,
  RequestLifecycle,
  requestIdOf,
  trustProxyOption,
  registerConnectionPolicy,
  slowClientOptions,
  ErrorResponse,
  apiPrefix,
  registerOpenApi,
} from './http/index.ts';
import type { ValidatorFactory } from '@fastify/ajv-compiler';
import type { Container } from './composition.ts';
import { webhookDocumentation, adminWebhooksRoutes, webhooksRoutes } from './webhooks/index.ts';
import { registerPartnerGuard, authRoutes, requireAuth } from './auth/index.ts';
import { loggerOptions, type DestinationStream } from './shared/index.ts';
import { adminRoutes, catalogsAdminRoutes } from './admin/index.ts';
import { keysRoutes } from './keys/index.ts';
import { backupRoutes } from './backup/index.ts';
import { operatorsRoutes } from './operators/index.ts';
import { auditRoutes } from './audit/index.ts';
import { lenderLeadsRoutes } from './lender/index.ts';
import { catalogsRoutes } from './catalogs/index.ts';
import { leadsRoutes } from './leads/index.ts';
import { verificationRoutes } from './verification/index.ts';
import { sandboxGuideRoute, sandboxRoutes } from './sandbox/index.ts';
import { healthRoutes, createMetrics, registerMetrics } from './operations/index.ts';
import { consolePlugin } from './console/index.ts';
import type { Tracing } from './tracing/index.ts';
import { outcomesRoutes } from './outcomes/index.ts';

export interface AppOptions {
  container: Container;
  logLevel?: string;
  logStream?: DestinationStream;
  /** True once the process has begun to stop: every request is then answered 503 (main.ts). */
  draining?: () => boolean;
  /** Server spans and trace ids in log lines, when tracing is on (src/tracing). */
  tracing?: Pick<Tracing, 'fastifyPlugin' | 'logFields'>;
}

export const bodyLimitBytes = 64 * 1024;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { container, logLevel = 'info', logStream, draining = () => false, tracing } = options;
  const { config, clock } = container;
  const metrics = createMetrics(container.metrics, container.sharedLimiter);
  container.webhooks.metrics.register(metrics.registry);
  const logger = loggerOptions(logLevel, tracing?.logFields);
  const app = Fastify({
    logger: logStream ? { ...logger, stream: logStream } : logger,
    bodyLimit: bodyLimitBytes,
    // Time limits for slow clients (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS; http/connection-policy.ts).
    ...slowClientOptions(config),
    // While closing, requests still reach the connection policy, which answers the ErrorResponse 503 / 5030.
    return503OnClosing: false,
    requestIdHeader: false,
    // Request id header, one access line and the metrics of every request (http/request-lifecycle.ts).
    logController: new RequestLifecycle(metrics),
    childLoggerFactory: (logger, bindings, options) => lazyChildLogger(logger, bindings, options),
    genReqId: requestIdOf,
    // TRUST_PROXY (http/trust-proxy.ts); the cast only keeps Fastify's overloads on the HTTP/1 server type.
    trustProxy: trustProxyOption(config.trustProxy) as true,
    routerOptions: { ignoreTrailingSlash: true },
    // URL errors and what Node's HTTP parser refuses answer ErrorResponses too (http/framework-errors.ts).
    frameworkErrors: frameworkErrorHandler(clock),
    clientErrorHandler: clientErrorHandler(clock),
    schemaController: {
      compilersFactory: {
        // Set as the factory (not with setValidatorCompiler) so no plugin can fall back to Ajv, which
        // reports only the first error and coerces types, by adding a shared schema.
        buildValidator: (() => schemaValidatorCompiler) as unknown as ValidatorFactory,
        // Response serializers compiled on a route's first answer of each status (http/lazy-serializer.ts).
        buildSerializer: lazySerializerFactory(),
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // First, so the request span covers every hook and route registered after it.
  if (tracing) await app.register(tracing.fastifyPlugin());
  app.addSchema(ErrorResponse);
  registerConnectionPolicy(app, { draining });
  registerJsonParser(app);
  const unknownRoute = registerUnknownRouteHandler(app, clock);
  registerErrorHandler(app, clock, unknownRoute);
  registerRequestValidation(app);
  registerMetrics(app, metrics, config.adminToken);
  await registerOpenApi(app, { sandboxGuide: container.sandbox !== undefined, webhooks: webhookDocumentation() });
  if (container.sandbox) await app.register(sandboxGuideRoute());

  await app.register(healthRoutes({ ping: () => container.db.ping() }));
  await app.register(
    authRoutes({ auth: container.auth, limiter: container.limiter, perMinute: config.tokenRateLimitPerMinute }),
  );
  if (config.adminToken) {
    const { adminToken } = config;
    const { operators } = container;
    await app.register(adminRoutes({ companies: container.companies, adminToken, operators }));
    const { store, repository } = container.catalogs;
    await app.register(catalogsAdminRoutes({ store, repository, adminToken, operators }));
    await app.register(operatorsRoutes({ operators, adminToken }));
    await app.register(
      lenderLeadsRoutes({ leads: container.lenderLeads, erasure: container.erasure, adminToken, operators }),
    );
    const { outcomes, funnel } = container;
    await app.register(outcomesRoutes({ outcomes, funnel, adminToken, operators }));
    await app.register(auditRoutes({ audit: container.audit, adminToken, operators }));
    await app.register(adminWebhooksRoutes({ webhooks: container.webhooks.service, adminToken, operators }));
    await app.register(keysRoutes({ keys: container.keys, adminToken, operators }));
    await app.register(backupRoutes({ backup: container.backup, adminToken, operators }));
  }
  // The operator console (docs/console.md): people sign in with an operator's e-mail and password.
  await app.register(
    consolePlugin({
      sessions: container.console.sessions,
      signIn: container.console.signIn,
      csrfKey: container.console.csrfKey,
      sandbox: container.sandbox !== undefined,
      lenderLeads: container.lenderLeads,
      companies: container.companies,
      webhooks: container.webhooks.service,
      catalogs: container.catalogs,
      operators: container.operators,
      audit: container.audit,
      outcomes: container.outcomes,
      funnel: container.funnel,
    }),
    { prefix: '/console' },
  );
  await app.register(
    async (partner) => {
      registerPartnerGuard(partner, {
        auth: container.auth,
        limiter: container.limiter,
        perMinute: config.rateLimitPerMinute,
      });
      // Partner route modules, in this order.
      await partner.register(catalogsRoutes({ store: container.catalogs.store }));
      await partner.register(
        leadsRoutes({
          leads: container.leads,
          queries: container.leadQueries,
          prefix: apiPrefix,
          catalogs: container.catalogs.store.lookup,
          clock,
        }),
      );
      await partner.register(verificationRoutes({ verification: container.verification }));
      // Sandbox environment only: elsewhere the route does not exist (404 / 4044).
      if (container.sandbox) await partner.register(sandboxRoutes({ sandbox: container.sandbox }));
      await partner.register(
        webhooksRoutes({
          service: container.webhooks.service,
          ownerOf: (request) => requireAuth(request).companyId,
          path: '/webhooks',
          locationPrefix: `${apiPrefix}/webhooks`,
          tags: ['webhooks'],
          security: [{ bearerAuth: [] }],
          operationPrefix: '',
          access: 'partner',
        }),
      );
    },
    { prefix: apiPrefix },
  );
  return app;
}
