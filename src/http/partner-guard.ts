/**
 * The guard of every partner route: bearer-token authentication, then the per-company rate limit.
 * It runs at `onRequest`, before the body is read, so an unauthenticated caller costs little.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext, AuthService } from '../auth/auth.service.ts';
import { errors } from './app-error.ts';
import type { RateLimiter } from './rate-limiter.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | undefined;
  }
}

export interface PartnerGuardDeps {
  auth: Pick<AuthService, 'authenticate'>;
  limiter: RateLimiter;
  perMinute: number;
}

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw errors.missingToken();
  return request.auth;
}

export function registerPartnerGuard(scope: FastifyInstance, deps: PartnerGuardDeps): void {
  scope.decorateRequest('auth', undefined);
  scope.addHook('onRequest', async (request, reply) => {
    request.auth = await deps.auth.authenticate(request.headers.authorization);
    const decision = await deps.limiter.consume(`company:${request.auth.companyId}`, deps.perMinute, 60_000);
    reply.header('x-ratelimit-limit', deps.perMinute);
    reply.header('x-ratelimit-remaining', decision.remaining);
    if (!decision.allowed) throw errors.tooManyRequests(decision.resetMs / 1000);
  });
}
