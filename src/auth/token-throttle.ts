/**
 * The token endpoint's limits: successful token requests per consumer key, and failed requests
 * per client address. Only a caller holding the secret can use up a key's allowance, so knowing a
 * consumer key is not enough to lock its partner out.
 */
import { errors, type RateLimiter } from '../http/index.ts';
import type { AuthService, TokenAnswer } from './auth.service.ts';

const minute = 60_000;

export function createThrottledTokenIssuer(deps: {
  auth: Pick<AuthService, 'issueToken'>;
  limiter: RateLimiter;
  perMinute: number;
}) {
  return async function issue(
    clientAddress: string,
    consumerKey: string,
    consumerSecret: string,
  ): Promise<TokenAnswer> {
    // Every attempt is counted as a failure before the secret is checked, and given back once it
    // proves right: of any number of concurrent wrong secrets, exactly the limit are checked.
    const failuresKey = `token-failures:${clientAddress}`;
    const failures = await deps.limiter.consume(failuresKey, deps.perMinute, minute);
    if (!failures.allowed) throw errors.tooManyRequests('TOKEN_FAILURE_LIMIT', failures.resetMs / 1000);
    const answer = await deps.auth.issueToken(consumerKey, consumerSecret);
    await deps.limiter.release(failuresKey, minute);
    const perKey = await deps.limiter.consume(`token-key:${consumerKey}`, deps.perMinute, minute);
    if (!perKey.allowed) throw errors.tooManyRequests('TOKEN_REQUEST_LIMIT', perKey.resetMs / 1000);
    return answer;
  };
}
