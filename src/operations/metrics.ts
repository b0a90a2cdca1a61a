/** Prometheus metrics of the process and the HTTP layer, on a registry of the app's own (never the global one). */
import type { FastifyInstance } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { createHttpMetrics } from './http-metrics.ts';
import { registerAdminGuard } from '../http/admin-guard.ts';

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'autofin_' });
  const http = createHttpMetrics();
  http.register(registry);
  return { registry, http };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function registerMetrics(app: FastifyInstance, metrics: Metrics, adminToken: string | undefined): void {
  if (adminToken === undefined) return;
  app.register(async (scope) => {
    registerAdminGuard(scope, adminToken);
    scope.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
      reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
    );
  });
}
