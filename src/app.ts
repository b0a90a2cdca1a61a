/**
 * Builds the HTTP app from a wired container. It never listens: main, tests and benchmarks all
 * build the same app. The modules' route plugins come from the container, in order (routes.ts).
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
import { webhookDocumentation } from './webhooks/index.ts';
import { PartnerOutcomeSchema } from './outcomes/index.ts';
import { EventDocumentSchema } from './documents/index.ts';
import { registerPartnerGuard } from './auth/index.ts';
import { loggerOptions, type DestinationStream } from './shared/index.ts';
import { createMetrics, registerMetrics } from './operations/index.ts';
import type { Tracing } from './tracing/index.ts';

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
  await registerOpenApi(app, {
    sandboxGuide: container.sandbox !== undefined,
    webhooks: webhookDocumentation({ partnerOutcome: PartnerOutcomeSchema, document: EventDocumentSchema }),
  });

  // Each module's route plugins, in the order of the container's list (routes.ts).
  const { routes } = container;
  for (const plugin of routes.public) await app.register(plugin);
  for (const plugin of routes.admin) await app.register(plugin);
  await app.register(routes.console, { prefix: '/console' });
  await app.register(
    async (partner) => {
      registerPartnerGuard(partner, {
        auth: container.auth,
        limiter: container.limiter,
        perMinute: config.rateLimitPerMinute,
      });
      for (const plugin of routes.partner) await partner.register(plugin);
    },
    { prefix: apiPrefix },
  );
  return app;
}
