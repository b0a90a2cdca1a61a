/**
 * What every request gets besides its handler: the `X-Request-Id` header, a debug line when it
 * arrives, and at the end the access line and the metrics. They are attached to each route when it
 * is added (with its url and method at hand), not as global hooks reading `request.routeOptions`,
 * which Fastify rebuilds on every access. Partner routes get the header from the partner guard,
 * so they run one hook fewer; error answers carry it through `sendError`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, onResponseHookHandler } from 'fastify';
import type { Metrics } from '../operations/metrics.ts';

export function setRequestIdHeader(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  request.log.debug({ method: request.method, url: request.url }, 'request received');
}

/** The access line and the metrics of one finished request. */
export function recordFinished(metrics: Metrics, request: FastifyRequest, reply: FastifyReply, method: string, route: string): void {
  const status = reply.statusCode;
  const ms = reply.elapsedTime;
  metrics.http.record(method, route, status, ms / 1000);
  // Paths carry ids (lead, company, ZIP code), never personal data. Successful reads are the bulk
  // of the traffic and are counted by the metrics: their line is debug.
  const level = method === 'GET' && status < 400 ? 'debug' : 'info';
  request.log[level]({ method, url: request.url, route, status, ms: Math.round(ms * 10) / 10 }, 'request completed');
}

const asArray = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

export function registerRequestLifecycle(app: FastifyInstance, options: { metrics: Metrics; guarded: (url: string) => boolean }): void {
  const idHook: onRequestHookHandler = (request, reply, done) => {
    setRequestIdHeader(request, reply);
    done();
  };
  app.addHook('onRoute', (route) => {
    const method = [route.method].flat()[0];
    const finished: onResponseHookHandler = (request, reply, done) => {
      recordFinished(options.metrics, request, reply, request.method === 'HEAD' ? 'HEAD' : method, route.url);
      done();
    };
    route.onResponse = [...asArray(route.onResponse), finished] as typeof route.onResponse;
    if (!options.guarded(route.url)) route.onRequest = [idHook, ...asArray(route.onRequest)] as typeof route.onRequest;
  });
}
