import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
type Field = { field: string; errorDetail: string };

function assertError(res: LightMyRequestResponse, status: number, code: number, message?: string) {
  assert.equal(res.statusCode, status, show(res));
  const body = res.json();
  assert.equal(body.code, code, show(res));
  if (message) assert.equal(body.message, message, show(res));
  assert.equal(body.requestId, res.headers['x-request-id'], show(res));
  assert.ok(!Number.isNaN(Date.parse(body.timestamp)), show(res));
}

const fieldsOf = (res: LightMyRequestResponse) =>
  (res.json().additionalData?.errors ?? []).map((e: Field) => e.field).sort();

let t: TestApp;
const admin = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = t.admin,
) => t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const createCompany = async (name = 'Autos del Norte') => {
  const res = await admin('POST', '/admin/companies', { name });
  assert.equal(res.statusCode, 201, show(res));
  return res.json() as { id: string; name: string; createdAt: string };
};

describe('admin API', () => {
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  companyTests();
  affiliateTests();
  companyErrorAndMetricsTests();
});

/** Access, companies and credentials. */
function companyTests(): void {
  test('without the admin token, with a wrong one or with a partner token every admin call is 401 / 4010', async () => {
    const companyId = t.partner.companyId;
    const calls: [string, string, unknown][] = [
      ['POST', '/admin/companies', { name: 'x' }],
      ['GET', '/admin/companies', undefined],
      ['POST', `/admin/companies/${companyId}/credentials`, undefined],
      ['DELETE', `/admin/credentials/${t.partner.consumerKey}`, undefined],
      ['POST', `/admin/companies/${companyId}/affiliates`, { user_type: 'SELLER' }],
    ];
    const headers: [string, Record<string, string>][] = [
      ['no header', {}],
      ['a wrong admin token', { authorization: 'Bearer not-the-admin-token-at-all' }],
      ['the admin token without its scheme', { authorization: t.admin.authorization.replace('Bearer ', '') }],
      ['a partner token', { authorization: `Bearer ${t.partner.token}` }],
    ];
    for (const [method, url, payload] of calls) {
      for (const [what, header] of headers) {
        const res = await admin(method as 'GET', url, payload, header);
        assertError(res, 401, 4010, 'Unauthorized');
        assert.match(
          String(res.headers['www-authenticate']),
          /^Bearer\b/,
          `${method} ${url} with ${what}: ${show(res)}`,
        );
      }
    }
    const stillWorks = await t.app.inject({ method: 'GET', url: `${api}/catalogs/years`, headers: t.partner.headers });
    assert.equal(stillWorks.statusCode, 200, `the refused DELETE revoked nothing: ${show(stillWorks)}`);
  });

  test('POST /admin/companies answers 201 {id, name, createdAt} and the company is listed', async () => {
    const res = await admin('POST', '/admin/companies', { name: 'Autos del Bajío' });
    assert.equal(res.statusCode, 201, show(res));
    const company = res.json();
    assert.deepEqual(Object.keys(company).sort(), ['createdAt', 'id', 'name']);
    assert.match(company.id, uuid);
    assert.equal(company.name, 'Autos del Bajío');
    assert.ok(Math.abs(Date.parse(company.createdAt) - Date.now()) < 60_000, show(res));
    const list = await admin('GET', '/admin/companies');
    assert.equal(list.statusCode, 200, show(list));
    assert.deepEqual(Object.keys(list.json()), ['items']);
    assert.deepEqual(
      list.json().items.find((c: { id: string }) => c.id === company.id),
      company,
    );
  });

  test('an invalid company body is 400 / 40015 naming each field', async () => {
    const cases: [unknown, string[]][] = [
      [{}, ['name']],
      [{ name: '' }, ['name']],
      [{ name: 'x'.repeat(201) }, ['name']],
      [{ name: 42 }, ['name']],
      [{ name: 'Ok', owner: 'someone' }, ['owner']],
    ];
    for (const [payload, fields] of cases) {
      const res = await admin('POST', '/admin/companies', payload);
      assertError(res, 400, 40015, 'Bad Request');
      assert.deepEqual(fieldsOf(res), fields, `${JSON.stringify(payload)}: ${show(res)}`);
    }
  });

  test('a credential is 201 {consumer_key, consumer_secret} and gets a token', async () => {
    const company = await createCompany();
    const res = await admin('POST', `/admin/companies/${company.id}/credentials`);
    assert.equal(res.statusCode, 201, show(res));
    const credential = res.json();
    assert.deepEqual(Object.keys(credential).sort(), ['consumer_key', 'consumer_secret']);
    assert.ok(credential.consumer_key.length >= 16 && credential.consumer_secret.length >= 32, show(res));
    const token = await t.app.inject({ method: 'POST', url: '/auth/token', payload: credential });
    assert.equal(token.statusCode, 200, show(token));
    const list = await admin('GET', '/admin/companies');
    assert.doesNotMatch(list.body, new RegExp(credential.consumer_secret), 'the secret is shown only once');
  });

  test('DELETE /admin/credentials/:key is 204; its tokens answer 401 from then on and it gets no new one', async () => {
    const partner = await t.newPartner();
    const res = await admin('DELETE', `/admin/credentials/${partner.consumerKey}`);
    assert.equal(res.statusCode, 204, show(res));
    assert.equal(res.body, '');
    const call = await t.app.inject({ method: 'GET', url: `${api}/catalogs/years`, headers: partner.headers });
    assertError(call, 401, 4010);
    const token = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      payload: { consumer_key: partner.consumerKey, consumer_secret: partner.consumerSecret },
    });
    assertError(token, 401, 4010);
    const again = await admin('DELETE', `/admin/credentials/${partner.consumerKey}`);
    assert.equal(again.statusCode, 204, `revoking twice is harmless: ${show(again)}`);
  });

  test('revoking an unknown credential is 404 / 4043 Credential not found', async () => {
    const res = await admin('DELETE', '/admin/credentials/ck_never_issued');
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(res.json().code, 4043, show(res));
    assert.equal(res.json().message, 'Credential not found', show(res));
  });
}

/** Affiliates with and without a user_id. */
function affiliateTests(): void {
  test('an affiliate without user_id gets a generated one: 201 {user_id, user_type, companyId}', async () => {
    const company = await createCompany();
    const res = await admin('POST', `/admin/companies/${company.id}/affiliates`, { user_type: 'SELLER' });
    assert.equal(res.statusCode, 201, show(res));
    const affiliate = res.json();
    assert.deepEqual(Object.keys(affiliate).sort(), ['companyId', 'user_id', 'user_type']);
    assert.match(affiliate.user_id, uuid);
    assert.equal(affiliate.user_type, 'SELLER');
    assert.equal(affiliate.companyId, company.id);
  });

  test('an affiliate with a given user_id keeps it; the same user_id again is 400 / 40015 on user_id', async () => {
    const company = await createCompany();
    const userId = randomUUID();
    const res = await admin('POST', `/admin/companies/${company.id}/affiliates`, {
      user_id: userId,
      user_type: 'Gerente de ventas',
    });
    assert.equal(res.statusCode, 201, show(res));
    assert.deepEqual(res.json(), { user_id: userId, user_type: 'Gerente de ventas', companyId: company.id });
    for (const companyId of [company.id, t.partner.companyId]) {
      const dup = await admin('POST', `/admin/companies/${companyId}/affiliates`, {
        user_id: userId,
        user_type: 'SELLER',
      });
      assertError(dup, 400, 40015, 'Bad Request');
      assert.deepEqual(fieldsOf(dup), ['user_id'], show(dup));
    }
    const upper = await admin('POST', `/admin/companies/${company.id}/affiliates`, {
      user_id: userId.toUpperCase(),
      user_type: 'SELLER',
    });
    assertError(upper, 400, 40015);
  });

  test('an invalid affiliate body is 400 / 40015 naming every failing field', async () => {
    const cases: [unknown, string[]][] = [
      [{}, ['user_type']],
      [{ user_type: '' }, ['user_type']],
      [{ user_type: 'x'.repeat(65) }, ['user_type']],
      [{ user_id: 'not-a-uuid', user_type: 'SELLER' }, ['user_id']],
      [{ user_id: 'not-a-uuid', user_type: '' }, ['user_id', 'user_type']],
      [{ user_type: 'SELLER', role: 'admin' }, ['role']],
    ];
    for (const [payload, fields] of cases) {
      const res = await admin('POST', `/admin/companies/${t.partner.companyId}/affiliates`, payload);
      assertError(res, 400, 40015, 'Bad Request');
      assert.deepEqual(fieldsOf(res), fields, `${JSON.stringify(payload)}: ${show(res)}`);
    }
  });
}

/** Unknown and malformed companies, and the metrics. */
function companyErrorAndMetricsTests(): void {
  test('an unknown company is 404 / 4046 for credentials and affiliates', async () => {
    const unknown = randomUUID();
    for (const res of [
      await admin('POST', `/admin/companies/${unknown}/credentials`),
      await admin('POST', `/admin/companies/${unknown}/affiliates`, { user_type: 'SELLER' }),
    ]) {
      assertError(res, 404, 4046, 'Company not found');
    }
  });

  test('a company id that is not a uuid is 400 / 40015 on companyId', async () => {
    const res = await admin('POST', '/admin/companies/42/credentials');
    assertError(res, 400, 40015);
    assert.deepEqual(fieldsOf(res), ['companyId'], show(res));
  });

  test('/metrics counts each request by method, route pattern and status, unknown routes included', async () => {
    const count = async (labels: string) => {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: t.admin })).body;
      const line = text.split('\n').find((l) => l.startsWith(`autofin_http_requests_total{${labels}}`));
      return line === undefined ? 0 : Number(line.split(' ').pop());
    };
    const zip = 'method="GET",route="/mx/b2b/autofin/api/catalogs/zip-code/:zipCode",status="200"';
    const missing = 'method="GET",route="unknown",status="404"';
    const refused = 'method="GET",route="/mx/b2b/autofin/api/catalogs/zip-code/:zipCode",status="401"';
    const before = [await count(zip), await count(missing), await count(refused)];
    await t.app.inject({ method: 'GET', url: `${api}/catalogs/zip-code/06700`, headers: t.partner.headers });
    await t.app.inject({ method: 'GET', url: `${api}/catalogs/zip-code/06700`, headers: t.partner.headers });
    await t.app.inject({ method: 'GET', url: `${api}/catalogs/zip-code/06700` });
    await t.app.inject({ method: 'GET', url: '/no/such/route' });
    assert.deepEqual(
      [await count(zip), await count(missing), await count(refused)],
      [before[0] + 2, before[1] + 1, before[2] + 1],
    );
  });

  test('GET /metrics with the admin token is Prometheus text; without it 401', async () => {
    await t.app.inject({ method: 'GET', url: '/health/live' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: t.admin });
    assert.equal(res.statusCode, 200, show(res));
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    assert.match(res.body, /^# TYPE autofin_http_requests_total counter$/m);
    assert.match(res.body, /autofin_http_requests_total\{[^}]*route="\/health\/live"[^}]*\} \d+/);
    for (const authorization of [undefined, 'Bearer wrong-admin-token-123456', `Bearer ${t.partner.token}`]) {
      const refused = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      assertError(refused, 401, 4010);
      assert.doesNotMatch(refused.body, /autofin_http_requests_total/);
    }
  });
}

describe('without ADMIN_TOKEN the admin API does not exist', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { ADMIN_TOKEN: '' } });
  });
  after(() => t.close());

  test('every /admin route and /metrics answer 404 / 4044, with or without a token', async () => {
    const id = randomUUID();
    const calls: [string, string][] = [
      ['POST', '/admin/companies'],
      ['GET', '/admin/companies'],
      ['POST', `/admin/companies/${id}/credentials`],
      ['DELETE', '/admin/credentials/ck_any'],
      ['POST', `/admin/companies/${id}/affiliates`],
      ['GET', '/metrics'],
    ];
    for (const [method, url] of calls) {
      for (const headers of [{}, { authorization: 'Bearer test-admin-token-0123456789abcdef' }]) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers,
          ...(method === 'POST' ? { payload: { name: 'x', user_type: 'SELLER' } } : {}),
        });
        assertError(res, 404, 4044, 'Not Found');
      }
    }
  });
});
