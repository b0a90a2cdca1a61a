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
  // The access log line and the metrics of a request, from one hook.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unknown';
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    metrics.http.record(request.method, route, status, ms / 1000);
    // Paths carry ids (lead, company, ZIP code), never personal data. Successful reads are the bulk
    // of the traffic and are counted by the metrics above: their line is debug.
    const level = request.method === 'GET' && status < 400 ? 'debug' : 'info';
    request.log[level]({ method: request.method, url: request.url, route, status, ms: Math.round(ms * 10) / 10 }, 'request completed');
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
