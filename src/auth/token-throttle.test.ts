import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';

/**
 * The per-address limit of failed token requests behind one load balancer (TRUST_PROXY=1), with
 * attempts sent all at once: every attempt is counted before its secret is checked, so exactly the
 * limit gets through. With REDIS_URL set, the same on the shared Redis counter.
 */
const limit = 20;
const balancer = '10.9.0.1';

async function startOfAWindow(needMs = 5000) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await sleep(left + 50);
}

function tokenRequest(t: TestApp, secret: string, forwardedFor: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/auth/token',
    remoteAddress: balancer,
    headers: { 'x-forwarded-for': forwardedFor },
    payload: { consumer_key: t.partner.consumerKey, consumer_secret: secret },
  });
}

function count(responses: LightMyRequestResponse[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const r of responses) out[r.statusCode] = (out[r.statusCode] ?? 0) + 1;
  return out;
}

// The shared counter when the run has Redis (CI has), else the in-memory one: the throttle is the
// same code on both, and each limiter's counting and giving back is tested in rate-limiter.test.ts.
const store = process.env.REDIS_URL ? 'in Redis' : 'in memory';
const env: Record<string, string> = process.env.REDIS_URL
  ? { REDIS_URL: process.env.REDIS_URL, AUTOFIN_ENV: `throttle-${randomBytes(4).toString('hex')}` }
  : {};

describe(`failed token requests per client address, counted ${store}`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { TOKEN_RATE_LIMIT_PER_MINUTE: String(limit), TRUST_PROXY: '1', ...env } });
  });
  after(() => t.close());

  test(
    `50 concurrent wrong secrets from one client: exactly ` + `${limit} are checked (401), the rest get 429`,
    async () => {
      await startOfAWindow();
      const responses = await Promise.all(Array.from({ length: 50 }, () => tokenRequest(t, 'wrong', '203.0.113.5')));
      assert.deepEqual(count(responses), { 401: limit, 429: 50 - limit }, responses.slice(0, 3).map(show).join('\n'));
      const limited = responses.find((r) => r.statusCode === 429)!;
      assert.equal(limited.json().code, 4290, show(limited));
      assert.match(String(limited.headers['retry-after']), /^[1-9]\d*$/);
    },
  );

  test(
    'a spoofed X-Forwarded-For rotated before the real entry ' +
      'stays limited; another client behind the balancer is not',
    async () => {
      await startOfAWindow();
      const attacker = '203.0.113.9';
      const responses = [];
      for (let i = 0; i < limit + 5; i++)
        responses.push(await tokenRequest(t, 'wrong', `192.0.2.${i + 1}, ${attacker}`));
      assert.deepEqual(count(responses), { 401: limit, 429: 5 });
      const neighbour = await tokenRequest(t, t.partner.consumerSecret, `${attacker}, 198.51.100.7`);
      assert.equal(neighbour.statusCode, 200, show(neighbour));
    },
  );

  test('right secrets are given back: successes never use up the failures allowed to an address', async () => {
    await startOfAWindow();
    const client = '198.51.100.20';
    for (let i = 0; i < limit - 1; i++) assert.equal((await tokenRequest(t, 'wrong', client)).statusCode, 401);
    for (let i = 0; i < 5; i++) {
      const ok = await tokenRequest(t, t.partner.consumerSecret, client);
      assert.equal(ok.statusCode, 200, show(ok));
    }
    assert.equal(
      (await tokenRequest(t, 'wrong', client)).statusCode,
      401,
      'the last failure within the limit is still checked',
    );
    assert.equal((await tokenRequest(t, 'wrong', client)).statusCode, 429);
  });
});
