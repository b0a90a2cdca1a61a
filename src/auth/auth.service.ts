/** Token issue (POST /auth/token) and bearer-token authentication of partner requests. */
import { errors } from '../http/index.ts';
import { type Clock, secretMatches } from '../shared/index.ts';
import type { CompanyLookups } from '../companies/index.ts';
import type { AccessTokens, TokenClaims } from './access-token.ts';
import type { CredentialStatus, CredentialStatusCache } from './credential-status-cache.ts';

export interface AuthContext {
  companyId: string;
  consumerKey: string;
}

export interface TokenAnswer {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

interface Deps {
  repository: Pick<CompanyLookups, 'findCredential'>;
  tokens: AccessTokens;
  statusCache: CredentialStatusCache;
  clock: Clock;
  tokenTtlSeconds: number;
}

// The scheme name is case-insensitive (RFC 7235).
const bearerPattern = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i;

interface VerifiedToken {
  claims: TokenClaims;
  /** The context every request with this token gets, built once. */
  context: AuthContext;
}

/**
 * Authorization headers whose token was already checked, so the hot path skips the parsing and
 * the HMAC: expiry is still checked on every use, and revocation through the credential status.
 * Bounded: cleared when full.
 */
function createVerifiedTokenCache(maxEntries = 10_000) {
  const entries = new Map<string, VerifiedToken>();
  return {
    get: (header: string) => entries.get(header),
    set(header: string, check: VerifiedToken) {
      if (entries.size >= maxEntries) entries.clear();
      entries.set(header, check);
    },
    delete: (header: string) => entries.delete(header),
  };
}

export function createAuthService(deps: Deps) {
  const verifiedTokens = createVerifiedTokenCache();
  async function credentialStatus(consumerKey: string): Promise<CredentialStatus> {
    const nowMs = deps.clock.now().getTime();
    const credential = await deps.repository.findCredential(consumerKey);
    const status = {
      active: credential !== undefined && credential.revokedAt === null,
      companyId: credential?.companyId,
    };
    deps.statusCache.set(consumerKey, status, nowMs);
    return status;
  }

  function checkToken(header: string | undefined, now: Date): VerifiedToken {
    if (header === undefined || header === '') throw errors.missingToken();
    // Keyed by the whole header: a partner's next request with the same token skips the parsing too.
    let verified = verifiedTokens.get(header);
    if (!verified) {
      const match = bearerPattern.exec(header);
      if (!match) throw errors.unauthorized('malformed authorization header');
      const check = deps.tokens.verify(match[1], now);
      if (!check.ok) {
        const text = {
          malformed: 'malformed token',
          bad_signature: 'invalid token',
          other_environment: 'token of another environment',
          expired: 'token expired',
        };
        throw errors.unauthorized(text[check.reason]);
      }
      const context = Object.freeze({ companyId: check.claims.cid, consumerKey: check.claims.sub });
      verified = { claims: check.claims, context };
      verifiedTokens.set(header, verified);
    }
    if (verified.claims.exp * 1000 <= now.getTime()) {
      verifiedTokens.delete(header);
      throw errors.unauthorized('token expired');
    }
    return verified;
  }

  function contextOf({ claims, context }: VerifiedToken, status: CredentialStatus): AuthContext {
    if (!status.active || status.companyId !== claims.cid) throw errors.unauthorized('token revoked');
    return context;
  }

  /**
   * The context of a header already checked, whose token is unexpired and whose credential is
   * active in the status cache; undefined otherwise, and then `authenticate` decides (with its 401s).
   * Never waits, never throws, never builds an error.
   */
  function authenticateCached(header: string | undefined): AuthContext | undefined {
    const verified = header === undefined ? undefined : verifiedTokens.get(header);
    if (!verified) return undefined;
    const nowMs = deps.clock.now().getTime();
    if (verified.claims.exp * 1000 <= nowMs) return undefined;
    const status = deps.statusCache.get(verified.claims.sub, nowMs);
    return status?.active && status.companyId === verified.claims.cid ? verified.context : undefined;
  }

  return {
    authenticateCached,

    /** Exchanges a consumer key and secret for a token; any mismatch is the same 401. */
    async issueToken(consumerKey: string, consumerSecret: string): Promise<TokenAnswer> {
      const credential = await deps.repository.findCredential(consumerKey);
      if (!credential || credential.revokedAt !== null || !secretMatches(consumerSecret, credential.secretHash)) {
        throw errors.unauthorized('invalid consumer key or secret');
      }
      const token = deps.tokens.issue(
        credential.consumerKey,
        credential.companyId,
        deps.clock.now(),
        deps.tokenTtlSeconds,
      );
      return { access_token: token, token_type: 'bearer', expires_in: deps.tokenTtlSeconds };
    },

    /**
     * Checks an Authorization header; throws the 401 the partner should see. Answers without a
     * promise when the token and its credential's status are cached (the hot path of every request).
     */
    authenticate(header: string | undefined): AuthContext | Promise<AuthContext> {
      const known = authenticateCached(header);
      if (known) return known;
      const now = deps.clock.now();
      const token = checkToken(header, now);
      const cached = deps.statusCache.get(token.claims.sub, now.getTime());
      if (cached) return contextOf(token, cached);
      return credentialStatus(token.claims.sub).then((status) => contextOf(token, status));
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
