import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { api, buildTestApp, createManualClock, show, type Partner, type TestApp } from '../../test/helper.ts';
import { createAccessTokens } from './access-token.ts';
import { createContainer, type Container } from '../composition.ts';
import { buildApp } from '../app.ts';

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
}
type Parameter = { name: string; in: string; schema?: { type?: string; pattern?: string } };

const signingKeyHex = randomBytes(32).toString('hex');
const tokensOf = (environment: string) => createAccessTokens(Buffer.from(signingKeyHex, 'hex'), environment);
const sampleValues: Record<string, string> = { yearId: '2020', makeId: '63', modelId: '1061', zipCode: '06700' };

function sampleFor(name: string, schema: Parameter['schema']): string {
  if (sampleValues[name]) return sampleValues[name];
  if (schema?.type === 'integer' || schema?.type === 'number') return '1';
  if (schema?.pattern?.includes('{8}-')) return randomUUID();
  return 'sample';
}

/** Every partner operation of the OpenAPI document, with its path parameters filled. */
async function partnerRoutes(app: FastifyInstance): Promise<Route[]> {
  const doc = (await app.inject({ method: 'GET', url: `${api}/openapi.json` })).json();
  const routes: Route[] = [];
  for (const [path, item] of Object.entries<Record<string, { parameters?: Parameter[] }>>(doc.paths)) {
    if (!path.startsWith(`${api}/`) || path === `${api}/openapi.json`) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        sampleFor(name, operation.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema),
      );
      routes.push({ method: method.toUpperCase() as Route['method'], url });
    }
  }
  return routes;
}

function call(app: FastifyInstance, route: Route, authorization?: string) {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  if (route.method === 'GET') return app.inject({ method: route.method, url: route.url, headers });
  return app.inject({
    method: route.method,
    url: route.url,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: '{}',
  });
}

function assertUnauthorized(res: LightMyRequestResponse, route: Route) {
  const where = `${route.method} ${route.url}: ${show(res)}`;
  assert.equal(res.statusCode, 401, where);
  const body = res.json();
  assert.equal(body.code, 4010, where);
  assert.equal(body.message, 'Unauthorized', where);
  assert.equal(body.requestId, res.headers['x-request-id'], where);
  assert.match(String(res.headers['www-authenticate']), /^Bearer\b/, where);
}

function assertTooManyRequests(res: LightMyRequestResponse) {
  assert.equal(res.statusCode, 429, show(res));
  assert.equal(res.json().code, 4290, show(res));
  assert.deepEqual(res.json().additionalData, { reason: 'COMPANY_REQUEST_LIMIT' }, show(res));
  assert.equal(res.json().message, 'Too Many Requests', show(res));
  assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/, show(res));
  assert.ok(Number(res.headers['retry-after']) <= 60, show(res));
}

/** The limiter counts per minute of the wall clock: start a burst well inside one window. */
async function startOfAWindow(needMs = 5000) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await sleep(left + 50);
}

describe('the 401 matrix over every partner route', () => {
  const clock = createManualClock();
  let t: TestApp;
  let routes: Route[];
  let valid: Partner;
  let expired: Partner;
  before(async () => {
    t = await buildTestApp({ clock, env: { TOKEN_SIGNING_KEY: signingKeyHex } });
    routes = await partnerRoutes(t.app);
    expired = t.partner;
    clock.advance((t.config.tokenTtlSeconds + 1) * 1000);
    valid = await t.newPartner();
  });
  after(() => t.close());

  test('the suite covers the catalog and lead operations of the OpenAPI document', () => {
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    assert.ok(urls.includes(`GET ${api}/catalogs/years/2020/brands`), urls.join('\n'));
    assert.ok(urls.includes(`GET ${api}/catalogs/zip-code/06700`), urls.join('\n'));
    assert.ok(routes.length >= 5, urls.join('\n'));
  });

  test('with a valid token every listed route exists and lets the partner in', async () => {
    for (const route of routes) {
      const res = await call(t.app, route, `Bearer ${valid.token}`);
      const where = `${route.method} ${route.url}: ${show(res)}`;
      assert.notEqual(res.statusCode, 401, where);
      const code = res.body ? res.json().code : undefined;
      assert.ok(![4044, 4050].includes(code), `the route must exist: ${where}`);
    }
  });

  const cases: [string, () => string | undefined][] = [
    ['no Authorization header', () => undefined],
    ['an empty Authorization header', () => ''],
    ['a Basic scheme', () => 'Basic eHl6OnNlY3JldA=='],
    ['a token without a scheme', () => valid.token],
    ['Bearer with nothing after it', () => 'Bearer '],
    ['Bearer with garbage', () => 'Bearer garbage'],
    ['Bearer with a JWT-looking string', () => 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'],
    [
      'a token with a bad signature',
      () => `Bearer ${valid.token.slice(0, -2)}${valid.token.endsWith('AA') ? 'BB' : 'AA'}`,
    ],
    ['an expired token', () => `Bearer ${expired.token}`],
    [
      'a token signed with the same key for another environment',
      () => `Bearer ${tokensOf('other').issue(valid.consumerKey, valid.companyId, clock.now(), 3600)}`,
    ],
    [
      'a token naming another company than its credential',
      () => `Bearer ${tokensOf('test').issue(valid.consumerKey, expired.companyId, clock.now(), 3600)}`,
    ],
  ];
  for (const [what, header] of cases) {
    test(`${what} is 401 / 4010 with WWW-Authenticate: Bearer on every partner route`, async () => {
      for (const route of routes) assertUnauthorized(await call(t.app, route, header()), route);
    });
  }

  test("a revoked credential's token is 401 on every partner route at once", async () => {
    const revoked = await t.newPartner();
    const before = await call(t.app, routes[0], `Bearer ${revoked.token}`);
    assert.notEqual(before.statusCode, 401, show(before));
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/admin/credentials/${revoked.consumerKey}`,
      headers: t.admin,
    });
    assert.equal(res.statusCode, 204, show(res));
    for (const route of routes) assertUnauthorized(await call(t.app, route, `Bearer ${revoked.token}`), route);
  });
});

describe('per-company rate limit (RATE_LIMIT_PER_MINUTE=3)', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
  });
  after(() => t.close());
  const years = (partner: Partner) =>
    t.app.inject({ method: 'GET', url: `${api}/catalogs/years`, headers: partner.headers });

  test('the 4th call of a minute is 429 / 4290 with Retry-After; another company is unaffected', async () => {
    const other = await t.newPartner();
    await startOfAWindow();
    for (let i = 1; i <= 3; i++) {
      const res = await years(t.partner);
      assert.equal(res.statusCode, 200, `call ${i}: ${show(res)}`);
      assert.equal(res.headers['x-ratelimit-limit'], '3');
    }
    assertTooManyRequests(await years(t.partner));
    const res = await years(other);
    assert.equal(res.statusCode, 200, show(res));
  });

  test('two credentials of one company share its count', async () => {
    const partner = await t.newPartner();
    const second = await t.app.inject({
      method: 'POST',
      url: `/admin/companies/${partner.companyId}/credentials`,
      headers: t.admin,
    });
    const token = (await t.app.inject({ method: 'POST', url: '/auth/token', payload: second.json() })).json()
      .access_token;
    await startOfAWindow();
    for (let i = 1; i <= 3; i++) assert.equal((await years(partner)).statusCode, 200);
    const res = await t.app.inject({
      method: 'GET',
      url: `${api}/catalogs/years`,
      headers: { authorization: `Bearer ${token}` },
    });
    assertTooManyRequests(res);
  });

  test("refused tokens do not use up the company's count", async () => {
    const partner = await t.newPartner();
    await startOfAWindow();
    for (let i = 1; i <= 5; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: `${api}/catalogs/years`,
        headers: { authorization: `Bearer ${partner.token}x` },
      });
      assert.equal(res.statusCode, 401, show(res));
    }
    assert.equal((await years(partner)).statusCode, 200);
  });
});

describe('with Redis, instances share the rate limit and revocations', () => {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  // A unique environment per run: Redis keys never collide with another run or test file.
  const environment = `t-${randomBytes(6).toString('hex')}`;
  const clock = createManualClock();
  let t: TestApp;
  let second: { app: FastifyInstance; container: Container };
  before(async () => {
    t = await buildTestApp({
      clock,
      env: {
        REDIS_URL: redisUrl,
        AUTOFIN_ENV: environment,
        RATE_LIMIT_PER_MINUTE: '3',
        TOKEN_SIGNING_KEY: signingKeyHex,
      },
    });
    // A second instance of the same environment on the same database, as behind a load balancer.
    const container = await createContainer({
      config: t.config,
      db: t.database.db,
      clock,
      signingKey: t.config.tokenSigningKey!,
      encryptionKey: randomBytes(32),
      warn: () => {},
      catalogStore: t.container.catalogs.store,
    });
    await container.prepare();
    second = { container, app: await buildApp({ container, logLevel: 'silent' }) };
    await second.app.ready();
  });
  after(async () => {
    await second.app.close();
    await second.container.close();
    await t.close();
  });
  const years = (app: FastifyInstance, partner: Partner) =>
    app.inject({ method: 'GET', url: `${api}/catalogs/years`, headers: partner.headers });

  // What the instances do every 200 ms in the background, done here at once (the first one again
  // after the second, so each has read the other's counts).
  const exchangeCounts = async () => {
    await t.container.sharedLimiter!.exchange();
    await second.container.sharedLimiter!.exchange();
    await t.container.sharedLimiter!.exchange();
  };

  test('calls on two instances count against one limit', async () => {
    await startOfAWindow();
    await exchangeCounts();
    assert.equal((await years(t.app, t.partner)).statusCode, 200);
    assert.equal((await years(t.app, t.partner)).statusCode, 200);
    await exchangeCounts();
    const third = await years(second.app, t.partner);
    assert.equal(third.statusCode, 200, show(third));
    assertTooManyRequests(await years(second.app, t.partner));
    await exchangeCounts();
    assertTooManyRequests(await years(t.app, t.partner));
    const other = await t.newPartner();
    assert.equal((await years(second.app, other)).statusCode, 200, 'another company has its own count');
  });

  test('a credential revoked on one instance is refused by the other without waiting for its cache', async () => {
    const partner = await t.newPartner();
    const primed = await years(second.app, partner);
    assert.equal(primed.statusCode, 200, show(primed));
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/admin/credentials/${partner.consumerKey}`,
      headers: t.admin,
    });
    assert.equal(res.statusCode, 204, show(res));
    // The manual clock never moves, so the other instance's status cache never expires on its own:
    // only the Redis message can turn its answer into a 401.
    let last = await years(second.app, partner);
    for (let i = 0; i < 40 && last.statusCode !== 401; i++) {
      await sleep(50);
      last = await years(second.app, partner);
    }
    assertUnauthorized(last, { method: 'GET', url: `${api}/catalogs/years` });
  });
});
