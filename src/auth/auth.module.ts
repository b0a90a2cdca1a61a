/**
 * The auth module as the composition root uses it: the partner's access tokens and their signing
 * keys, and the authentication of bearer tokens; a revoked credential is forgotten on every
 * instance (through Redis when there is one).
 */
import type { Config } from '../config/index.ts';
import type { CompanyLookups } from '../companies/index.ts';
import type { Clock } from '../shared/index.ts';
import { createAccessTokens } from './access-token.ts';
import type { ModuleRoutes, RateLimiter } from '../http/index.ts';
import { authRoutes } from './auth.routes.ts';
import { createAuthService } from './auth.service.ts';
import { createCredentialStatusCache } from './credential-status-cache.ts';

// Short enough that a revocation reaches instances without Redis (or while it is down) within a
// second: the status is read from the database at most this long before it is used, plus the
// query's own time (docs/api.md).
const credentialStatusTtlMs = 750;

export interface AuthModuleDeps {
  config: Pick<Config, 'environment' | 'tokenSigningPreviousKeys' | 'tokenTtlSeconds' | 'tokenRateLimitPerMinute'>;
  clock: Clock;
  signingKey: Buffer;
  /** The credentials' store and the news of their revocations (the companies module). */
  credentials: Pick<CompanyLookups, 'findCredential' | 'onRevoked'>;
  /** The rate limits the token endpoint counts its attempts in. */
  limiter: RateLimiter;
}

export function createAuthModule(deps: AuthModuleDeps) {
  const { config } = deps;
  const statusCache = createCredentialStatusCache(credentialStatusTtlMs);
  deps.credentials.onRevoked((key) => statusCache.invalidate(key));
  const tokens = createAccessTokens(deps.signingKey, config.environment, config.tokenSigningPreviousKeys);
  const service = createAuthService({
    repository: deps.credentials,
    tokens,
    statusCache,
    clock: deps.clock,
    tokenTtlSeconds: config.tokenTtlSeconds,
  });
  // The token endpoint (POST /auth/token); the partner guard that checks the tokens is registered by app.ts.
  const routes: ModuleRoutes = {
    public: [authRoutes({ auth: service, limiter: deps.limiter, perMinute: config.tokenRateLimitPerMinute })],
  };
  return {
    service,
    /** The signing keys' ids (key rotation reports them). */
    tokens,
    routes,
  };
}

export type AuthModule = ReturnType<typeof createAuthModule>;
