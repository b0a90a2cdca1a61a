/**
 * The guard of every partner route: bearer-token authentication, then the per-company rate limit.
 * It runs at `onRequest`, before the body is read, so an unauthenticated caller costs little.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext, AuthService } from './auth.service.ts';
import { errors, type LimitDecision, type RateLimiter } from '../http/index.ts';

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

/** The rate-limit counter of a partner: one per company, whichever route or instance it calls. */
export const rateLimitKey = (auth: AuthContext) => `company:${auth.companyId}`;
export const rateLimitWindowMs = 60_000;

/** The headers every admitted partner request answers with, whichever path answers it. */
export const rateLimitHeaders = (limit: string, decision: LimitDecision) => ({
  'x-ratelimit-limit': limit,
  'x-ratelimit-remaining': decision.remaining,
});

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw errors.missingToken();
  return request.auth;
}

export function registerPartnerGuard(scope: FastifyInstance, deps: PartnerGuardDeps): void {
  scope.decorateRequest('auth', undefined);
  const limitHeader = String(deps.perMinute);

  function admit(request: FastifyRequest, reply: FastifyReply, auth: AuthContext, decision: LimitDecision): void {
    request.auth = auth;
    reply.headers(rateLimitHeaders(limitHeader, decision));
    if (!decision.allowed) throw errors.tooManyRequests('COMPANY_REQUEST_LIMIT', decision.resetMs / 1000);
  }

  const consume = (auth: AuthContext) => deps.limiter.consumeNow(rateLimitKey(auth), deps.perMinute, rateLimitWindowMs);

  // A callback hook, not an async one: the rate limit is decided in memory (with REDIS_URL too, see
  // shared-rate-limiter.ts) and a cached token needs no lookup, so a request then costs no promise.
  scope.addHook('onRequest', (request, reply, done) => {
    try {
      const auth = deps.auth.authenticate(request.headers.authorization);
      if (!(auth instanceof Promise)) {
        admit(request, reply, auth, consume(auth));
        done();
        return;
      }
      auth.then((known) => admit(request, reply, known, consume(known))).then(() => done(), done);
    } catch (error) {
      done(error as Error);
    }
  });
}
