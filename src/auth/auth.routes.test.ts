import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';

type Body = Record<string, unknown>;

function requestToken(
  t: TestApp,
  payload: Body | undefined,
  headers: Record<string, string> = {},
  remoteAddress?: string,
) {
  return t.app.inject({
    method: 'POST',
    url: '/auth/token',
    headers: { accept: 'application/json', ...headers },
    payload,
    remoteAddress,
  });
}

async function newCredential(t: TestApp, companyId = t.partner.companyId) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/admin/companies/${companyId}/credentials`,
    headers: t.admin,
  });
  assert.equal(res.statusCode, 201, show(res));
  return res.json() as { consumer_key: string; consumer_secret: string };
}

function assertError(res: LightMyRequestResponse, status: number, code: number, message: string) {
  assert.equal(res.statusCode, status, show(res));
  const body = res.json();
  assert.equal(body.code, code, show(res));
  assert.equal(body.message, message, show(res));
  assert.equal(body.requestId, res.headers['x-request-id'], show(res));
  assert.ok(!Number.isNaN(Date.parse(body.timestamp)), show(res));
}

function assertUnauthorized(res: LightMyRequestResponse) {
  assertError(res, 401, 4010, 'Unauthorized');
  assert.match(String(res.headers['www-authenticate']), /^Bearer /, show(res));
}

function assertTooManyRequests(res: LightMyRequestResponse, reason: 'TOKEN_REQUEST_LIMIT' | 'TOKEN_FAILURE_LIMIT') {
  assertError(res, 429, 4290, 'Too Many Requests');
  assert.deepEqual(res.json().additionalData, { reason }, show(res));
  const retryAfter = String(res.headers['retry-after']);
  assert.match(retryAfter, /^[1-9]\d*$/, `Retry-After "${retryAfter}" must be whole seconds; ${show(res)}`);
  assert.ok(Number(retryAfter) <= 60, `Retry-After ${retryAfter} is within the minute window`);
}

/** The limiter counts per minute of the wall clock: start a burst well inside one window. */
async function startOfAWindow(needMs = 5000) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await sleep(left + 50);
}

let t: TestApp;

describe('POST /auth/token', () => {
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  tokenTests();
  refusedTests();
});

/** A token, what it opens, and the version header. */
function tokenTests(): void {
  test('a valid key and secret get a bearer token valid for an hour, never cached', async () => {
    const res = await requestToken(
      t,
      { consumer_key: t.partner.consumerKey, consumer_secret: t.partner.consumerSecret },
      { 'accept-version': 'v1' },
    );
    assert.equal(res.statusCode, 200, show(res));
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'token_type']);
    assert.equal(body.token_type, 'bearer');
    assert.equal(body.expires_in, 3600);
    assert.ok(typeof body.access_token === 'string' && body.access_token.length > 20, show(res));
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.match(String(res.headers['content-type']), /^application\/json/);
  });

  test('the token opens the partner API', async () => {
    const token = (
      await requestToken(t, { consumer_key: t.partner.consumerKey, consumer_secret: t.partner.consumerSecret })
    ).json().access_token;
    const res = await t.app.inject({
      method: 'GET',
      url: `${api}/catalogs/years`,
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(res.statusCode, 200, show(res));
  });

  test('without Accept-Version the request is v1', async () => {
    const res = await requestToken(t, {
      consumer_key: t.partner.consumerKey,
      consumer_secret: t.partner.consumerSecret,
    });
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.json().token_type, 'bearer');
  });

  test('any Accept-Version other than v1 is a 400 ErrorResponse naming the header', async () => {
    for (const version of ['v2', 'V1', '1']) {
      const res = await requestToken(
        t,
        { consumer_key: t.partner.consumerKey, consumer_secret: t.partner.consumerSecret },
        { 'accept-version': version },
      );
      assertError(res, 400, 40015, 'Bad Request');
      assert.deepEqual(
        res.json().additionalData.errors.map((e: { field: string }) => e.field),
        ['Accept-Version'],
        show(res),
      );
      assert.equal(res.json().access_token, undefined);
    }
  });
}

/** Missing fields and wrong credentials. */
function refusedTests(): void {
  test('missing key and secret are a 400 / 40015 listing both fields', async () => {
    const res = await requestToken(t, {});
    assertError(res, 400, 40015, 'Bad Request');
    const fields = res
      .json()
      .additionalData.errors.map((e: { field: string }) => e.field)
      .sort();
    assert.deepEqual(fields, ['consumer_key', 'consumer_secret'], show(res));
  });

  test('a missing secret and an empty key are each listed', async () => {
    const onlyKey = await requestToken(t, { consumer_key: t.partner.consumerKey });
    assertError(onlyKey, 400, 40015, 'Bad Request');
    assert.deepEqual(onlyKey.json().additionalData.errors, [{ field: 'consumer_secret', errorDetail: 'is required' }]);
    const empty = await requestToken(t, { consumer_key: '', consumer_secret: 'x' });
    assertError(empty, 400, 40015, 'Bad Request');
    assert.deepEqual(
      empty.json().additionalData.errors.map((e: { field: string }) => e.field),
      ['consumer_key'],
      show(empty),
    );
  });

  test('a wrong secret, an unknown key and a revoked credential get the same 401 / 4010', async () => {
    const revoked = await newCredential(t);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/admin/credentials/${revoked.consumer_key}`,
      headers: t.admin,
    });
    assert.equal(del.statusCode, 204, show(del));
    const answers = [
      await requestToken(t, { consumer_key: t.partner.consumerKey, consumer_secret: `${t.partner.consumerSecret}x` }),
      await requestToken(t, { consumer_key: 'ck_does_not_exist', consumer_secret: t.partner.consumerSecret }),
      await requestToken(t, revoked),
    ];
    for (const res of answers) {
      assertUnauthorized(res);
      assert.equal(res.json().access_token, undefined, show(res));
      assert.equal(res.headers['cache-control'], 'no-store');
    }
    // The same answer for all three: nothing tells a caller which keys exist.
    assert.equal(new Set(answers.map((r) => `${r.headers['www-authenticate']} ${r.json().message}`)).size, 1);
  });
}

describe('TOKEN_TTL_SECONDS', () => {
  test('sets expires_in of new tokens', async () => {
    const t = await buildTestApp({ env: { TOKEN_TTL_SECONDS: '120' } });
    try {
      const res = await requestToken(t, {
        consumer_key: t.partner.consumerKey,
        consumer_secret: t.partner.consumerSecret,
      });
      assert.equal(res.statusCode, 200, show(res));
      assert.equal(res.json().expires_in, 120);
    } finally {
      await t.close();
    }
  });
});

describe('token endpoint rate limits (TOKEN_RATE_LIMIT_PER_MINUTE=3)', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { TOKEN_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  after(() => t.close());

  test('a consumer key gets 3 tokens a minute, then 429 / 4290 with Retry-After, from any address', async () => {
    const credential = await newCredential(t);
    await startOfAWindow();
    for (let i = 1; i <= 3; i++) {
      const res = await requestToken(t, credential, {}, '10.1.0.1');
      assert.equal(res.statusCode, 200, `request ${i}: ${show(res)}`);
    }
    assertTooManyRequests(await requestToken(t, credential, {}, '10.1.0.1'), 'TOKEN_REQUEST_LIMIT');
    assertTooManyRequests(await requestToken(t, credential, {}, '10.1.0.2'), 'TOKEN_REQUEST_LIMIT');
    const otherKey = await newCredential(t);
    const res = await requestToken(t, otherKey, {}, '10.1.0.1');
    assert.equal(res.statusCode, 200, `another key is not limited: ${show(res)}`);
  });

  test('after 3 failed attempts an address gets 429 even for a valid new key; other addresses do not', async () => {
    const credential = await newCredential(t);
    await startOfAWindow();
    for (let i = 1; i <= 3; i++) {
      assertUnauthorized(
        await requestToken(t, { consumer_key: `ck_guess_${i}`, consumer_secret: 'guess' }, {}, '10.2.0.1'),
      );
    }
    assertTooManyRequests(await requestToken(t, credential, {}, '10.2.0.1'), 'TOKEN_FAILURE_LIMIT');
    const elsewhere = await requestToken(t, credential, {}, '10.2.0.2');
    assert.equal(elsewhere.statusCode, 200, `another address is not limited: ${show(elsewhere)}`);
  });

  test('successful requests do not count as failures of the address', async () => {
    await startOfAWindow();
    for (let i = 1; i <= 3; i++) {
      const credential = await newCredential(t);
      const res = await requestToken(t, credential, {}, '10.3.0.1');
      assert.equal(res.statusCode, 200, `key ${i}: ${show(res)}`);
    }
    const res = await requestToken(t, await newCredential(t), {}, '10.3.0.1');
    assert.equal(res.statusCode, 200, show(res));
  });
});

describe('behind a trusted load balancer (TRUST_PROXY)', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { TOKEN_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '10.9.0.1' } });
  });
  after(() => t.close());

  test('failed attempts count per client address from X-Forwarded-For, not per balancer', async () => {
    const credential = await newCredential(t);
    await startOfAWindow();
    const from = (client: string) => ({ 'x-forwarded-for': client });
    for (let i = 1; i <= 3; i++) {
      assertUnauthorized(
        await requestToken(
          t,
          { consumer_key: `ck_lb_${i}`, consumer_secret: 'guess' },
          from('203.0.113.5'),
          '10.9.0.1',
        ),
      );
    }
    assertTooManyRequests(await requestToken(t, credential, from('203.0.113.5'), '10.9.0.1'), 'TOKEN_FAILURE_LIMIT');
    const other = await requestToken(t, credential, from('198.51.100.7'), '10.9.0.1');
    assert.equal(other.statusCode, 200, `another client behind the same balancer is not limited: ${show(other)}`);
  });
});
