/**
 * What every request gets besides its handler: the `X-Request-Id`, `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff` headers, a debug line when it
 * arrives, and at the end one access line and the metrics. Fastify calls its log controller at
 * exactly those two points of every request (routes, the 404 handler, errors alike), so they are
 * done there rather than in `onRequest`/`onResponse` hooks, which each add a hook run to every
 * request. Fastify's own two lines per request are replaced by the one access line.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Level, Logger } from 'pino';
import { loggableUrl } from './loggable-url.ts';

/** Whether the request's logger writes at that level: lines that would not be written are not built. */
const writes = (request: FastifyRequest, level: Level) => (request.log as unknown as Logger).isLevelEnabled(level);

/** Where each request is counted: the service's metrics (operations). */
export interface RequestMetrics {
  readonly http: { record(method: string, route: string, status: number, seconds: number): void };
}

export class RequestLifecycle extends LogController {
  constructor(private readonly metrics: RequestMetrics) {
    super({ requestIdLogLabel: 'requestId', disableRequestLogging: true });
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    reply.header('x-request-id', request.id);
    // Answers carry people's data unless a route says otherwise (the catalogs set their own caching):
    // no cache keeps them; and no browser guesses another type than the one declared.
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    if (writes(request, 'debug'))
      request.log.debug({ method: request.method, url: loggableUrl(request.url) }, 'request received');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const method = request.method;
    const route = request.routeOptions.url ?? 'unknown';
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    this.metrics.http.record(method, route, status, ms / 1000);
    // Paths carry ids (lead, company, ZIP code), never personal data; of the query only declared
    // filters keep their values (loggable-url.ts): a token sent there never reaches the log.
    // Successful reads are the bulk of the traffic and are counted by the metrics: their line is debug.
    const level = error ? 'warn' : method === 'GET' && status < 400 ? 'debug' : 'info';
    if (!writes(request, level)) return;
    // The partner behind the request (ids only: never the secret or the token).
    const auth = request.auth;
    const fields = {
      method,
      url: loggableUrl(request.url),
      route,
      status,
      ms: Math.round(ms * 10) / 10,
      ...(auth && { companyId: auth.companyId, consumerKey: auth.consumerKey }),
    };
    if (error) request.log.warn({ ...fields, err: error }, 'response interrupted');
    else request.log[level](fields, 'request completed');
  }
}
