/**
 * Access tokens are HMAC-SHA256 signed claims, so any instance holding TOKEN_SIGNING_KEY can check
 * them without a database round trip. The environment name is both a claim and part of the
 * signed input: a token of another environment never verifies here.
 *
 * Tokens name the key that signed them (`kid`, the key's id): TOKEN_SIGNING_KEY signs, and the
 * previous keys still verify the tokens they signed until those expire. A token signed before tokens
 * named their key is checked against each configured key.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomToken, keyIdOf } from '../shared/index.ts';

export interface TokenClaims {
  /** consumer key the token was issued to */
  sub: string;
  /** company of that credential */
  cid: string;
  /** environment name */
  env: string;
  /** issued at / expires at, seconds since epoch */
  iat: number;
  exp: number;
  jti: string;
  /** id of the signing key (absent from tokens signed before tokens named their key) */
  kid?: string;
}

export type TokenCheck =
  | { ok: true; claims: TokenClaims }
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'other_environment' | 'expired' };

const prefix = 'afn1';

function sign(key: Buffer, env: string, payload: string): string {
  return createHmac('sha256', key).update(`${prefix}.${env}.${payload}`).digest('base64url');
}

const signedBy = (key: Buffer, env: string, payload: string, signature: string) => {
  const expected = Buffer.from(sign(key, env, payload));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
};

/** `key` signs new tokens; it and every `previous` key verify. */
export function createAccessTokens(key: Buffer, environment: string, previous: readonly Buffer[] = []) {
  const kid = keyIdOf(key);
  const keys = new Map<string, Buffer>([[kid, key]]);
  for (const other of previous) if (!keys.has(keyIdOf(other))) keys.set(keyIdOf(other), other);
  return {
    kid,
    previousKids: [...keys.keys()].filter((id) => id !== kid),

    issue(subject: string, companyId: string, now: Date, ttlSeconds: number): string {
      const iat = Math.floor(now.getTime() / 1000);
      const claims: TokenClaims = {
        sub: subject,
        cid: companyId,
        env: environment,
        iat,
        exp: iat + ttlSeconds,
        jti: randomToken(9),
        kid,
      };
      const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return `${prefix}.${payload}.${sign(key, environment, payload)}`;
    },

    verify(token: string, now: Date): TokenCheck {
      const parts = token.split('.');
      if (parts.length !== 3 || parts[0] !== prefix || !parts[1] || !parts[2])
        return { ok: false, reason: 'malformed' };
      let claims: TokenClaims;
      try {
        claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as TokenClaims;
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      if (typeof claims !== 'object' || claims === null || typeof claims.env !== 'string')
        return { ok: false, reason: 'malformed' };
      const [payload, signature] = [parts[1], parts[2]];
      const candidates = typeof claims.kid === 'string' ? [keys.get(claims.kid)] : [...keys.values()];
      if (!candidates.some((k) => k !== undefined && signedBy(k, claims.env, payload, signature))) {
        return { ok: false, reason: 'bad_signature' };
      }
      if (claims.env !== environment) return { ok: false, reason: 'other_environment' };
      if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
      return { ok: true, claims };
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
