/**
 * Unknown routes answer 404 / 4044; a known path with another method answers 405 / 4050 with
 * `Allow`. Fastify only knows "not found", so the registered paths are kept as patterns here.
 */
import type { FastifyInstance } from 'fastify';
import { errors, type AppError } from './app-error.ts';
import { sendError } from './error-response.ts';
import type { Clock } from '../shared/index.ts';

/** The answer to a request no route takes: 405 with the path's methods, or 404. */
export type UnknownRouteError = (url: string) => AppError;

export function registerUnknownRouteHandler(app: FastifyInstance, clock: Clock): UnknownRouteError {
  // Each distinct path pattern, with its count of parameters: a path matched by a static pattern
  // (`/admin/leads/purge`) is answered from that pattern's methods, not from a parametric one's
  // (`/admin/leads/:leadId`) it would also match.
  const routes: { pattern: RegExp; methods: Set<string>; params: number }[] = [];
  app.addHook('onRoute', (route) => {
    const source = route.url
      .split('/')
      .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const pattern = new RegExp(`^${source}/?$`);
    const methods = [route.method].flat().map((m) => m.toUpperCase());
    const params = route.url.split('/').filter((seg) => seg.startsWith(':') || seg === '*').length;
    const existing = routes.find((r) => r.pattern.source === pattern.source);
    if (existing) methods.forEach((m) => existing.methods.add(m));
    else routes.push({ pattern, methods: new Set(methods), params });
  });

  const errorFor: UnknownRouteError = (url) => {
    const path = url.split('?')[0];
    const matching = routes.filter((route) => route.pattern.test(path));
    const fewest = Math.min(...matching.map((route) => route.params));
    const allowed = new Set<string>();
    for (const route of matching) if (route.params === fewest) route.methods.forEach((m) => allowed.add(m));
    return allowed.size > 0 ? errors.methodNotAllowed([...allowed].sort()) : errors.routeNotFound();
  };
  app.setNotFoundHandler((request, reply) => sendError(request, reply, errorFor(request.url), clock.now()));
  return errorFor;
}
