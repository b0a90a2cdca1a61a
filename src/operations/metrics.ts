/** Prometheus metrics of the process and the HTTP layer, on a registry of the app's own (never the global one). */
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { createHttpMetrics } from './http-metrics.ts';
import { createServiceMetrics, type ServiceMetrics } from './service-metrics.ts';
import { registerAdminGuard, AppError } from '../http/index.ts';

/** The state of the rate limits shared through Redis (REDIS_URL), read when metrics are scraped. */
export interface SharedLimitsState {
  isShared(): boolean;
  failures(): number;
}

export function createMetrics(service: ServiceMetrics = createServiceMetrics(), sharedLimits?: SharedLimitsState) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'autofin_' });
  const http = createHttpMetrics();
  http.register(registry);
  service.register(registry);
  if (sharedLimits) {
    new Gauge({
      name: 'autofin_rate_limits_shared',
      help: '1 while rate limits are shared through Redis, 0 while each instance counts alone (Redis down or slow)',
      registers: [registry],
      collect() {
        this.set(sharedLimits.isShared() ? 1 : 0);
      },
    });
    let reported = 0;
    new Counter({
      name: 'autofin_rate_limit_sync_failures_total',
      help: 'Exchanges of rate-limit counts with Redis that failed or timed out',
      registers: [registry],
      collect() {
        const failures = sharedLimits.failures();
        this.inc(failures - reported);
        reported = failures;
      },
    });
  }
  return { registry, http, service };
}

/** The limit behind a 429, as its answer names it in `additionalData.reason` (docs/api.md, "Rate limits"). */
function refusalReason(error: AppError): string {
  const reason = error.additionalData?.reason;
  return typeof reason === 'string' ? reason : 'unknown';
}

export type Metrics = ReturnType<typeof createMetrics>;

export function registerMetrics(app: FastifyInstance, metrics: Metrics, adminToken: string | undefined): void {
  // Only requests that fail run this hook; the 429s among them are counted by limit.
  app.addHook('onError', (_request, _reply, error, done) => {
    if (error instanceof AppError && error.statusCode === 429) metrics.service.rateLimitRefused(refusalReason(error));
    done();
  });
  if (adminToken === undefined) return;
  app.register(async (scope) => {
    registerAdminGuard(scope, adminToken);
    scope.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
      reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
    );
  });
}
