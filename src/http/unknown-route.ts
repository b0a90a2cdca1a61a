/**
 * Unknown routes answer 404 / 4044; a known path with another method answers 405 / 4050 with
 * `Allow`. Fastify only knows "not found", so the registered paths are kept as patterns here.
 */
import type { FastifyInstance } from 'fastify';
import { errors } from './app-error.ts';
import { sendError } from './error-response.ts';
import type { Clock } from '../shared/clock.ts';

export function registerUnknownRouteHandler(app: FastifyInstance, clock: Clock): void {
  const routes: { pattern: RegExp; methods: Set<string> }[] = [];
  app.addHook('onRoute', (route) => {
    const source = route.url
      .split('/')
      .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const pattern = new RegExp(`^${source}/?$`);
    const methods = [route.method].flat().map((m) => m.toUpperCase());
    const existing = routes.find((r) => r.pattern.source === pattern.source);
    if (existing) methods.forEach((m) => existing.methods.add(m));
    else routes.push({ pattern, methods: new Set(methods) });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = new Set<string>();
    for (const route of routes) if (route.pattern.test(path)) route.methods.forEach((m) => allowed.add(m));
    const error = allowed.size > 0 ? errors.methodNotAllowed([...allowed].sort()) : errors.routeNotFound();
    return sendError(request, reply, error, clock.now());
  });
}
