/**
 * Builds the HTTP app from a wired container. It never listens: main, tests and benchmarks all
 * build the same app. Routes are registered explicitly here, so their order is visible.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { schemaValidatorCompiler } from './http/schema-validator.ts';
import type { ValidatorFactory } from '@fastify/ajv-compiler';
import type { Container } from './composition.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { registerUnknownRouteHandler } from './http/unknown-route.ts';
import { registerJsonParser } from './http/json-body.ts';
import { lazyChildLogger } from './http/lazy-request-logger.ts';
import { RequestLifecycle } from './http/request-lifecycle.ts';
import { requestIdOf } from './http/request-id.ts';
import { serverWithFastPath } from './http/http-server.ts';
import { createCatalogReadPath } from './catalogs/catalog-read-path.ts';
import { ErrorResponse } from './http/error-response.ts';
import { apiPrefix, registerOpenApi } from './http/openapi.ts';
import { registerPartnerGuard } from './http/partner-guard.ts';
import { loggerOptions, type DestinationStream } from './shared/logging.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { adminRoutes } from './admin/admin.routes.ts';
import { catalogsAdminRoutes } from './admin/catalogs-admin.routes.ts';
import { catalogsRoutes } from './catalogs/catalogs.routes.ts';
import { leadsRoutes } from './leads/leads.routes.ts';
import { verificationRoutes } from './verification/verification.routes.ts';
import { healthRoutes } from './operations/health.routes.ts';
import { createMetrics, registerMetrics } from './operations/metrics.ts';
import { adminWebhooksRoutes, webhooksRoutes } from './webhooks/index.ts';
import { requireAuth } from './http/partner-guard.ts';

export interface AppOptions {
  container: Container;
  logLevel?: string;
  logStream?: DestinationStream;
}

export const bodyLimitBytes = 64 * 1024;

export async function buildApp({ container, logLevel = 'info', logStream }: AppOptions): Promise<FastifyInstance> {
  const { config, clock } = container;
  const metrics = createMetrics();
  container.webhooks.metrics.register(metrics.registry);
  let closing = false;
  const catalogReadPath = createCatalogReadPath({
    store: container.catalogs.store,
    auth: container.auth,
    limiter: container.limiter,
    perMinute: config.rateLimitPerMinute,
    prefix: apiPrefix,
    record: metrics.http.record,
    enabled: () => !closing && !logsEveryRead,
  });
  const app = Fastify({
    // Catalog reads of partners already authenticated are answered before Fastify (catalog-read-path.ts).
    serverFactory: serverWithFastPath(catalogReadPath, (error) => app.log.error({ err: error }, 'catalog read path failed')),
    logger: logStream ? { ...loggerOptions(logLevel), stream: logStream } : loggerOptions(logLevel),
    bodyLimit: bodyLimitBytes,
    requestIdHeader: false,
    // Request id header, one access line and the metrics of every request (http/request-lifecycle.ts).
    logController: new RequestLifecycle(metrics),
    childLoggerFactory: (logger, bindings, options) => lazyChildLogger(logger, bindings, options),
    genReqId: requestIdOf,
    // Any of Fastify's trustProxy forms; the cast only keeps its overloads on the HTTP/1 server type.
    trustProxy: config.trustProxy as true,
    routerOptions: { ignoreTrailingSlash: true },
    // Set as the factory (not with setValidatorCompiler) so no plugin can fall back to Ajv, which
    // reports only the first error and coerces types, by adding a shared schema.
    schemaController: { compilersFactory: { buildValidator: (() => schemaValidatorCompiler) as unknown as ValidatorFactory } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // At debug every request has its access line, which Fastify's path writes.
  const logsEveryRead = (app.log as unknown as Logger).isLevelEnabled('debug');
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addSchema(ErrorResponse);
  registerJsonParser(app);
  registerErrorHandler(app, clock);
  registerUnknownRouteHandler(app, clock);
  registerMetrics(app, metrics, config.adminToken);
  await registerOpenApi(app);

  await app.register(healthRoutes({ ping: () => container.db.ping() }));
  await app.register(
    authRoutes({ auth: container.auth, limiter: container.limiter, perMinute: config.tokenRateLimitPerMinute }),
  );
  if (config.adminToken) {
    await app.register(adminRoutes({ companies: container.companies, adminToken: config.adminToken }));
    const { store, repository } = container.catalogs;
    await app.register(catalogsAdminRoutes({ store, repository, adminToken: config.adminToken }));
    await app.register(adminWebhooksRoutes({ webhooks: container.webhooks.service, adminToken: config.adminToken }));
  }
  await app.register(
    async (partner) => {
      registerPartnerGuard(partner, {
        auth: container.auth,
        limiter: container.limiter,
        perMinute: config.rateLimitPerMinute,
      });
      // Partner route modules, in this order.
      await partner.register(catalogsRoutes({ store: container.catalogs.store }));
      await partner.register(leadsRoutes({ leads: container.leads, queries: container.leadQueries, prefix: apiPrefix }));
      await partner.register(verificationRoutes({ verification: container.verification }));
      await partner.register(webhooksRoutes({
        service: container.webhooks.service, ownerOf: (request) => requireAuth(request).companyId, path: '/webhooks',
        locationPrefix: `${apiPrefix}/webhooks`, tags: ['webhooks'], security: [{ bearerAuth: [] }], operationPrefix: '',
      }));
    },
    { prefix: apiPrefix },
  );
  return app;
}
