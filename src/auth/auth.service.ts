/** Token issue (POST /auth/token) and bearer-token authentication of partner requests. */
import { errors } from '../http/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import type { CompaniesRepository } from '../companies/companies.repository.ts';
import type { AccessTokens } from './access-token.ts';
import type { CredentialStatusCache } from './credential-status-cache.ts';
import { secretMatches } from './secret-hash.ts';

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
  repository: Pick<CompaniesRepository, 'findCredential'>;
  tokens: AccessTokens;
  statusCache: CredentialStatusCache;
  clock: Clock;
  tokenTtlSeconds: number;
}

// The scheme name is case-insensitive (RFC 7235).
const bearerPattern = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i;

export function createAuthService(deps: Deps) {
  async function credentialStatus(consumerKey: string) {
    const nowMs = deps.clock.now().getTime();
    const cached = deps.statusCache.get(consumerKey, nowMs);
    if (cached) return cached;
    const credential = await deps.repository.findCredential(consumerKey);
    const status = { active: credential !== undefined && credential.revokedAt === null, companyId: credential?.companyId };
    deps.statusCache.set(consumerKey, status, nowMs);
    return status;
  }

  return {
    /** Exchanges a consumer key and secret for a token; any mismatch is the same 401. */
    async issueToken(consumerKey: string, consumerSecret: string): Promise<TokenAnswer> {
      const credential = await deps.repository.findCredential(consumerKey);
      if (!credential || credential.revokedAt !== null || !secretMatches(consumerSecret, credential.secretHash)) {
        throw errors.unauthorized('invalid consumer key or secret');
      }
      const token = deps.tokens.issue(credential.consumerKey, credential.companyId, deps.clock.now(), deps.tokenTtlSeconds);
      return { access_token: token, token_type: 'bearer', expires_in: deps.tokenTtlSeconds };
    },

    /** Checks an Authorization header; throws the 401 the partner should see. */
    async authenticate(header: string | undefined): Promise<AuthContext> {
      if (header === undefined || header === '') throw errors.missingToken();
      const match = bearerPattern.exec(header);
      if (!match) throw errors.unauthorized('malformed authorization header');
      const check = deps.tokens.verify(match[1], deps.clock.now());
      if (!check.ok) {
        const text = { malformed: 'malformed token', bad_signature: 'invalid token', other_environment: 'token of another environment', expired: 'token expired' };
        throw errors.unauthorized(text[check.reason]);
      }
      const status = await credentialStatus(check.claims.sub);
      if (!status.active || status.companyId !== check.claims.cid) throw errors.unauthorized('token revoked');
      return { companyId: check.claims.cid, consumerKey: check.claims.sub };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
