/**
 * The webhook routes as a partner and the lender see them: the endpoint life cycle, tenancy (a
 * foreign endpoint or delivery is a 404 on every route), authentication, and the URL rules.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { api, buildTestApp, show, type Partner, type TestApp } from '../../test/helper.ts';
import { assertError } from '../../test/lead-fixture.ts';
import type { Resolver } from './url-policy.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const routes = (base: string, endpointId: string, deliveryId: string): [Method, string, object?][] => [
  ['GET', `${base}/${endpointId}`],
  ['PATCH', `${base}/${endpointId}`, { enabled: false }],
  ['DELETE', `${base}/${endpointId}`],
  ['POST', `${base}/${endpointId}/secret/rotate`],
  ['POST', `${base}/${endpointId}/test`],
  ['GET', `${base}/${endpointId}/deliveries`],
  ['POST', `${base}/${endpointId}/deliveries/${deliveryId}/retry`],
];

let t: TestApp;
let other: Partner;

const create = (partner: Partner, payload: object) =>
  t.app.inject({ method: 'POST', url: `${api}/webhooks`, headers: partner.headers, payload });

function webhookRoutesTests1() {
  test('create, list, read, change and delete an endpoint; the secret is shown only at creation', async () => {
    const created = await create(t.partner, {
      url: 'http://127.0.0.1:9/hooks',
      description: 'CRM',
      eventTypes: ['lead.verified'],
    });
    assert.equal(created.statusCode, 201, show(created));
    const body = created.json();
    assert.deepEqual(Object.keys(body).sort(), [
      'createdAt',
      'description',
      'enabled',
      'eventTypes',
      'id',
      'secret',
      'url',
    ]);
    assert.match(body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await t.app.inject({ method: 'GET', url: `${api}/webhooks`, headers: t.partner.headers });
    assert.deepEqual(list.json().items, [
      {
        id: body.id,
        url: body.url,
        eventTypes: ['lead.verified'],
        description: 'CRM',
        enabled: true,
        createdAt: body.createdAt,
      },
    ]);
    assert.ok(!list.body.includes('whsec_'));
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `${api}/webhooks/${body.id}`,
      headers: t.partner.headers,
      payload: { eventTypes: null, enabled: false },
    });
    assert.equal(patched.statusCode, 200, show(patched));
    assert.equal(patched.json().eventTypes, null);
    assert.equal(patched.json().enabled, false);
    const read = await t.app.inject({
      method: 'GET',
      url: `${api}/webhooks/${body.id.toUpperCase()}`,
      headers: t.partner.headers,
    });
    assert.deepEqual(read.json(), patched.json());
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${api}/webhooks/${body.id}`,
      headers: t.partner.headers,
    });
    assert.equal(deleted.statusCode, 204);
    assertError(
      await t.app.inject({ method: 'GET', url: `${api}/webhooks/${body.id}`, headers: t.partner.headers }),
      404,
      4047,
      'Webhook endpoint not found',
    );
  });

  test('invalid input is 400 / 40015 naming each field', async () => {
    const res = await create(t.partner, { url: 'ftp://x', eventTypes: ['lead.deleted'], extra: 1 });
    const body = assertError(res, 400, 40015, 'Bad Request');
    const fields = body.additionalData.errors.map((e: { field: string }) => e.field);
    assert.ok(fields.includes('eventTypes.0'), show(res));
  });

  test('another company’s endpoint is 404 / 4047 on every route, and it stays unchanged', async () => {
    const mine = (await create(t.partner, { url: 'http://127.0.0.1:9/mine' })).json();
    const tested = await t.app.inject({
      method: 'POST',
      url: `${api}/webhooks/${mine.id}/test`,
      headers: t.partner.headers,
    });
    const deliveryId = tested.json().deliveryId;
    for (const [method, url, payload] of routes(`${api}/webhooks`, mine.id, deliveryId)) {
      const res = await t.app.inject({ method, url, headers: other.headers, ...(payload ? { payload } : {}) });
      assertError(res, 404, 4047, 'Webhook endpoint not found');
    }
    assert.deepEqual((await t.app.inject({ method: 'GET', url: `${api}/webhooks`, headers: other.headers })).json(), {
      items: [],
    });
    const still = await t.app.inject({ method: 'GET', url: `${api}/webhooks/${mine.id}`, headers: t.partner.headers });
    assert.equal(still.json().enabled, true);
    // The lender's admin routes do not see a partner's endpoint either: they are the lender's own.
    assertError(
      await t.app.inject({ method: 'GET', url: `/admin/webhooks/${mine.id}`, headers: t.admin }),
      404,
      4047,
      'Webhook endpoint not found',
    );
  });
}

function webhookRoutesTests2() {
  test('an unknown delivery, or one of another endpoint, is 404 / 4048', async () => {
    const a = (await create(t.partner, { url: 'http://127.0.0.1:9/a' })).json();
    const b = (await create(t.partner, { url: 'http://127.0.0.1:9/b' })).json();
    const ofB = (
      await t.app.inject({ method: 'POST', url: `${api}/webhooks/${b.id}/test`, headers: t.partner.headers })
    ).json().deliveryId;
    for (const deliveryId of [randomUUID(), ofB]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${api}/webhooks/${a.id}/deliveries/${deliveryId}/retry`,
        headers: t.partner.headers,
      });
      assertError(res, 404, 4048, 'Webhook delivery not found');
    }
  });

  test('every partner route needs a token, and every admin route the admin token', async () => {
    const id = randomUUID();
    for (const [base, headers] of [
      [`${api}/webhooks`, {}],
      ['/admin/webhooks', { authorization: `Bearer ${t.partner.token}` }],
    ] as const) {
      for (const [method, url, payload] of [
        ['GET', base] as [Method, string],
        ['POST', base, { url: 'http://127.0.0.1:9/' }] as [Method, string, object],
        ...routes(base, id, randomUUID()),
      ]) {
        const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
        assertError(res, 401, 4010, 'Unauthorized');
      }
    }
  });

  test('the lender manages its own endpoints under /admin/webhooks with the same shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/webhooks',
      headers: t.admin,
      payload: { url: 'http://127.0.0.1:9/lender' },
    });
    assert.equal(res.statusCode, 201, show(res));
    const list = (await t.app.inject({ method: 'GET', url: '/admin/webhooks', headers: t.admin })).json().items;
    assert.deepEqual(
      list.map((e: { id: string }) => e.id),
      [res.json().id],
    );
    assertError(
      await t.app.inject({ method: 'GET', url: `${api}/webhooks/${res.json().id}`, headers: t.partner.headers }),
      404,
      4047,
      'Webhook endpoint not found',
    );
    const rotated = await t.app.inject({
      method: 'POST',
      url: `/admin/webhooks/${res.json().id}/secret/rotate`,
      headers: t.admin,
    });
    assert.match(rotated.json().secret, /^whsec_/);
  });
}

describe('webhook routes', () => {
  before(async () => {
    t = await buildTestApp();
    other = await t.newPartner();
  });
  after(() => t.close());
  webhookRoutesTests1();
  webhookRoutesTests2();
});

let production: TestApp;
let table: Record<string, string>;
const resolver: Resolver = async (host) =>
  table[host] ? [{ address: table[host], family: 4 }] : Promise.reject(new Error('ENOTFOUND'));

function productionUrlTests1() {
  test(
    'http, loopback, 10.x, metadata and a hostname resolving ' + 'to 127.0.0.1 are refused with 400 / 40015 on url',
    async () => {
      for (const url of [
        'http://hooks.partner.example/in',
        'https://127.0.0.1/in',
        'https://10.0.0.8/in',
        'https://169.254.169.254/latest/meta-data',
        'https://rebound.example/in',
      ]) {
        const res = await production.app.inject({
          method: 'POST',
          url: `${api}/webhooks`,
          headers: production.partner.headers,
          payload: { url },
        });
        const body = assertError(res, 400, 40015, 'Bad Request');
        assert.equal(body.additionalData.errors[0].field, 'url', url);
      }
      const ok = await production.app.inject({
        method: 'POST',
        url: `${api}/webhooks`,
        headers: production.partner.headers,
        payload: { url: 'https://hooks.partner.example/in' },
      });
      assert.equal(ok.statusCode, 201, show(ok));
      const patched = await production.app.inject({
        method: 'PATCH',
        url: `${api}/webhooks/${ok.json().id}`,
        headers: production.partner.headers,
        payload: { url: 'https://rebound.example/in' },
      });
      assertError(patched, 400, 40015, 'Bad Request');
    },
  );

  test(
    'IPv6 forms of internal addresses are refused on the ' + "partner's and the lender's routes, a public one accepted",
    async () => {
      const internal = [
        '2002:7f00:1::',
        '2002:a00:1::',
        '2002:a9fe:a9fe::',
        '::7f00:1',
        '::127.0.0.1',
        '::ffff:0:7f00:1',
        '2001:0:4136:e378:8000:63bf:80ff:fffe',
        'fec0::1',
        '100::1',
        '64:ff9b:1::a00:1',
        '64:ff9b::a9fe:a9fe',
        '2001:db8::1',
        'fc00::1',
        'fe80::1',
        'ff02::1',
        '::',
        '::ffff:127.0.0.1',
        '::ffff:169.254.169.254',
        '3fff::1',
        '5f00::1',
      ];
      for (const [base, headers] of [
        [`${api}/webhooks`, production.partner.headers],
        ['/admin/webhooks', production.admin],
      ] as const) {
        for (const address of internal) {
          const res = await production.app.inject({
            method: 'POST',
            url: base,
            headers,
            payload: { url: `https://[${address}]/in` },
          });
          const body = assertError(res, 400, 40015, 'Bad Request');
          assert.equal(body.additionalData.errors[0].field, 'url', `${base} ${address}`);
        }
        const listed = (await production.app.inject({ method: 'GET', url: base, headers })).json().items;
        assert.ok(
          listed.every((e: { url: string }) => !e.url.includes('[')),
          `${base}: nothing refused was saved`,
        );
        const ok = await production.app.inject({
          method: 'POST',
          url: base,
          headers,
          payload: { url: 'https://[2606:4700:4700::1111]/in' },
        });
        assert.equal(ok.statusCode, 201, show(ok));
      }
    },
  );
}

function productionUrlTests2() {
  test('a hostname re-pointed at 127.0.0.1 after it was saved is refused at send time', async () => {
    const created = await production.app.inject({
      method: 'POST',
      url: `${api}/webhooks`,
      headers: production.partner.headers,
      payload: { url: 'https://hooks.partner.example/late' },
    });
    const id = created.json().id;
    table['hooks.partner.example'] = '127.0.0.1';
    await production.app.inject({
      method: 'POST',
      url: `${api}/webhooks/${id}/test`,
      headers: production.partner.headers,
    });
    await production.container.webhooks.worker.runUntilIdle();
    const [delivery] = (
      await production.app.inject({
        method: 'GET',
        url: `${api}/webhooks/${id}/deliveries`,
        headers: production.partner.headers,
      })
    ).json().items;
    assert.equal(delivery.attempts[0].statusCode, null);
    assert.match(delivery.attempts[0].error, /refused.*loopback/);
  });
}

describe('endpoint URLs in production', () => {
  before(async () => {
    table = { 'hooks.partner.example': '93.184.216.34', 'rebound.example': '127.0.0.1' };
    const key = () => randomBytes(32).toString('base64');
    production = await buildTestApp({
      env: { AUTOFIN_ENV: 'production', TOKEN_SIGNING_KEY: key(), DATA_ENCRYPTION_KEY: key() },
      webhookResolver: resolver,
    });
  });
  after(() => production.close());
  productionUrlTests1();
  productionUrlTests2();
});

describe('endpoint URLs in the sandbox', () => {
  let t: TestApp;
  const resolver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
  before(async () => (t = await buildTestApp({ env: { AUTOFIN_ENV: 'sandbox' }, webhookResolver: resolver })));
  after(() => t.close());

  test('http and loopback are accepted, so a partner can test on its own machine; metadata stays refused', async () => {
    for (const url of ['http://127.0.0.1:8080/in', 'http://[::1]:8080/in', 'http://localhost:8080/in']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${api}/webhooks`,
        headers: t.partner.headers,
        payload: { url },
      });
      assert.equal(res.statusCode, 201, `${url}: ${show(res)}`);
    }
    const refused = await t.app.inject({
      method: 'POST',
      url: `${api}/webhooks`,
      headers: t.partner.headers,
      payload: { url: 'http://169.254.169.254/latest/meta-data' },
    });
    assertError(refused, 400, 40015, 'Bad Request');
  });

  test('the service’s own port, its database’s and Redis’s are refused on loopback, and port 0 anywhere', async () => {
    const sandbox = await buildTestApp({
      env: {
        AUTOFIN_ENV: 'sandbox',
        PORT: '3456',
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5433/x',
        REDIS_URL: 'redis://127.0.0.1:6390',
      },
      webhookResolver: resolver,
    });
    try {
      const create = (url: string) =>
        sandbox.app.inject({
          method: 'POST',
          url: `${api}/webhooks`,
          headers: sandbox.partner.headers,
          payload: { url },
        });
      for (const url of ['http://127.0.0.1:3456/health/live', 'http://localhost:5433/', 'http://[::1]:6390/']) {
        const body = assertError(await create(url), 400, 40015, 'Bad Request');
        assert.match(JSON.stringify(body.additionalData), /port of this service or of a server it uses/, url);
      }
      const zero = assertError(await create('https://1.1.1.1:0/'), 400, 40015, 'Bad Request');
      assert.match(JSON.stringify(zero.additionalData), /port from 1 to 65535/);
      assert.equal((await create('http://127.0.0.1:3457/in')).statusCode, 201);
    } finally {
      await sandbox.close();
    }
  });
});
