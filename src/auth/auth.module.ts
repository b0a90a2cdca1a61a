/**
 * The auth module as the composition root uses it: the partner's access tokens and their signing
 * keys, and the authentication of bearer tokens; a revoked credential is forgotten on every
 * instance (through Redis when there is one).
 */
import type { Config } from '../config/index.ts';
import type { CompanyLookups } from '../companies/index.ts';
import type { Clock } from '../shared/index.ts';
import { createAccessTokens } from './access-token.ts';
import { createAuthService } from './auth.service.ts';
import { createCredentialStatusCache } from './credential-status-cache.ts';
import { createLocalRevocationBus, createRedisRevocationBus } from './revocation-bus.ts';

// Short enough that a revocation reaches instances without Redis (or while it is down) within a
// second: the status is read from the database at most this long before it is used, plus the
// query's own time (docs/api.md).
const credentialStatusTtlMs = 750;

export interface AuthModuleDeps {
  config: Pick<Config, 'environment' | 'tokenSigningPreviousKeys' | 'tokenTtlSeconds'>;
  clock: Clock;
  signingKey: Buffer;
  /** The credentials' store (the companies module). */
  credentials: Pick<CompanyLookups, 'findCredential'>;
  /** With REDIS_URL: the client revocations travel through, and where its failures go. */
  redis?: {
    client: Parameters<typeof createRedisRevocationBus>[0];
    warn: (message: string, error?: unknown) => void;
  };
}

export function createAuthModule(deps: AuthModuleDeps) {
  const { config, redis } = deps;
  const statusCache = createCredentialStatusCache(credentialStatusTtlMs);
  const onRevoked = (key: string) => statusCache.invalidate(key);
  const revocations = redis
    ? createRedisRevocationBus(redis.client, config.environment, onRevoked, redis.warn)
    : createLocalRevocationBus(onRevoked);
  const tokens = createAccessTokens(deps.signingKey, config.environment, config.tokenSigningPreviousKeys);
  const service = createAuthService({
    repository: deps.credentials,
    tokens,
    statusCache,
    clock: deps.clock,
    tokenTtlSeconds: config.tokenTtlSeconds,
  });
  return {
    service,
    /** The signing keys' ids (key rotation reports them). */
    tokens,
    /** Makes every instance forget a revoked credential's cached status. */
    revoked: (consumerKey: string) => revocations.publish(consumerKey),
    close: () => revocations.close(),
  };
}

export type AuthModule = ReturnType<typeof createAuthModule>;
