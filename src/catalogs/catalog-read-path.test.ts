import { after, before, describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { api, buildTestApp, type Partner, type TestApp } from '../../test/helper.ts';
import { createCatalogReadPath } from './catalog-read-path.ts';

/** What the read path leaves to Fastify comes back as this status from the test server. */
const leftToFastify = 599;
/** Headers that differ between any two answers whoever sends them. */
const perAnswer = new Set(['date', 'connection', 'keep-alive', 'x-request-id', 'x-ratelimit-remaining']);
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

interface Request {
  method?: string;
  path: string;
  headers?: Record<string, string>;
}

async function overHttp(base: string, { method = 'GET', path, headers = {} }: Request): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { method, headers: { accept: '*/*', ...headers } });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) };
}

async function throughFastify(t: TestApp, { method = 'GET', path, headers = {} }: Request): Promise<Answer> {
  const res = await t.app.inject({ method: method as 'GET', url: path, headers: { accept: '*/*', ...headers } });
  return { status: res.statusCode, headers: res.headers as Record<string, string>, body: res.rawPayload };
}

const comparable = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !perAnswer.has(name)).map(([name, value]) => [name, String(value)]));

/** A server that only offers requests to a read path built on the test app's own services. */
async function readPathServer(t: TestApp, enabled = () => true) {
  const recorded: { method: string; route: string; status: number; seconds: number }[] = [];
  const readPath = createCatalogReadPath({
    store: t.container.catalogs.store,
    auth: t.container.auth,
    limiter: t.container.limiter,
    perMinute: t.config.rateLimitPerMinute,
    prefix: api,
    record: (method, route, status, seconds) => recorded.push({ method, route, status, seconds }),
    enabled,
  });
  const server: Server = createServer((req, res) => {
    if (!readPath(req, res)) res.writeHead(leftToFastify).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, recorded, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('the catalog read path answers as the catalog routes do', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof readPathServer>>;
  const auth = () => ({ authorization: `Bearer ${t.partner.token}` });
  before(async () => {
    t = await buildTestApp({ logLevel: 'info' });
    server = await readPathServer(t);
    // The partner's token is checked once by Fastify's guard, as a partner's first request is.
    assert.equal((await throughFastify(t, { path: `${api}/catalogs/years`, headers: auth() })).status, 200);
  });
  after(async () => {
    await server.close();
    await t.close();
  });

  const reads: Request[] = [
    { path: `${api}/catalogs/years` },
    { path: `${api}/catalogs/years/2020/brands` },
    { path: `${api}/catalogs/years/2020/brands/63/models` },
    { path: `${api}/catalogs/years/2020/brands/63/models/1061/versions` },
    { path: `${api}/catalogs/zip-code/06700` },
    { path: `${api}/catalogs/zip-code/64000`, headers: { accept: 'application/xml' } },
    { path: `${api}/catalogs/years/2020/brands`, headers: { accept: 'text/xml, application/json;q=0.5' } },
  ];
  for (const read of reads) {
    test(`GET ${read.path.slice(api.length)} ${read.headers?.accept ?? ''}: same status, headers and bytes`, async () => {
      const fast = await overHttp(server.base, { ...read, headers: { ...auth(), ...read.headers } });
      const routed = await throughFastify(t, { ...read, headers: { ...auth(), ...read.headers } });
      assert.equal(fast.status, 200, fast.body.toString());
      assert.equal(routed.status, 200);
      assert.deepEqual(comparable(fast.headers), comparable(routed.headers));
      assert.ok(fast.body.equals(routed.body), 'the same bytes');
      assert.match(fast.headers['x-request-id'], uuid);
      assert.match(fast.headers['x-ratelimit-remaining'], /^\d+$/);
    });
  }

  test('the shipped data through the read path: 06700 is Roma Norte, Cuauhtémoc, state 09', async () => {
    const fast = await overHttp(server.base, { path: `${api}/catalogs/zip-code/06700`, headers: auth() });
    const zip = JSON.parse(fast.body.toString());
    assert.ok(zip.neighborhoods.includes('Roma Norte'));
    assert.equal(zip.municipality, 'Cuauhtémoc');
    assert.deepEqual(zip.state, { id: '09', name: 'Ciudad de México' });
  });

  test('304 for a current If-None-Match (also weak or in a list), 200 for a stale one, as Fastify', async () => {
    const path = `${api}/catalogs/zip-code/06760`;
    const { headers } = await overHttp(server.base, { path, headers: auth() });
    for (const ifNoneMatch of [headers.etag, `W/${headers.etag}`, `"stale", ${headers.etag}`]) {
      const fast = await overHttp(server.base, { path, headers: { ...auth(), 'if-none-match': ifNoneMatch } });
      const routed = await throughFastify(t, { path, headers: { ...auth(), 'if-none-match': ifNoneMatch } });
      assert.equal(fast.status, 304, ifNoneMatch);
      assert.equal(routed.status, 304);
      assert.deepEqual(comparable(fast.headers), comparable(routed.headers));
      assert.equal(fast.body.length, 0);
    }
    const stale = await overHttp(server.base, { path, headers: { ...auth(), 'if-none-match': '"stale"' } });
    assert.equal(stale.status, 200);
    assert.deepEqual(JSON.parse(stale.body.toString()).neighborhoods, ['Roma Sur']);
  });

  test('keeps a safe X-Request-Id the partner sent and replaces any other', async () => {
    const path = `${api}/catalogs/years`;
    const kept = await overHttp(server.base, { path, headers: { ...auth(), 'x-request-id': 'dealer-42.a_b' } });
    assert.equal(kept.headers['x-request-id'], 'dealer-42.a_b');
    const replaced = await overHttp(server.base, { path, headers: { ...auth(), 'x-request-id': 'no spaces; please' } });
    assert.match(replaced.headers['x-request-id'], uuid);
  });

  test('counts each answer in the metrics under the route Fastify names, with its status', async () => {
    server.recorded.length = 0;
    const path = `${api}/catalogs/years/2020/brands/63/models`;
    await overHttp(server.base, { path, headers: auth() });
    const { headers } = await overHttp(server.base, { path: `${api}/catalogs/zip-code/06700`, headers: auth() });
    await overHttp(server.base, { path: `${api}/catalogs/zip-code/06700`, headers: { ...auth(), 'if-none-match': headers.etag } });
    assert.deepEqual(server.recorded.map(({ method, route, status }) => [method, route, status]), [
      ['GET', `${api}/catalogs/years/:yearId/brands/:makeId/models`, 200],
      ['GET', `${api}/catalogs/zip-code/:zipCode`, 200],
      ['GET', `${api}/catalogs/zip-code/:zipCode`, 304],
    ]);
    for (const { route, seconds } of server.recorded) {
      assert.ok(t.app.hasRoute({ method: 'GET', url: route }), route);
      assert.ok(seconds >= 0 && seconds < 1, String(seconds));
    }
  });

  test('leaves to Fastify every request it cannot answer at once with a 200 or a 304', async () => {
    const unused: Partner = await t.newPartner(); // a token this instance has not checked yet
    const cases: [string, Request][] = [
      ['no Authorization', { path: `${api}/catalogs/years`, headers: {} }],
      ['a malformed token', { path: `${api}/catalogs/years`, headers: { authorization: 'Bearer not-a-token' } }],
      ['another scheme', { path: `${api}/catalogs/years`, headers: { authorization: `Basic ${t.partner.token}` } }],
      ['a token not checked yet', { path: `${api}/catalogs/years`, headers: { authorization: `Bearer ${unused.token}` } }],
      ['HEAD', { method: 'HEAD', path: `${api}/catalogs/years` }],
      ['POST', { method: 'POST', path: `${api}/catalogs/years` }],
      ['a query string', { path: `${api}/catalogs/years?page=1` }],
      ['a trailing slash', { path: `${api}/catalogs/years/` }],
      ['an id with a leading zero', { path: `${api}/catalogs/years/02020/brands` }],
      ['an id that is not an integer', { path: `${api}/catalogs/years/20x0/brands` }],
      ['an id out of range', { path: `${api}/catalogs/years/99999999999/brands` }],
      ['an unknown year', { path: `${api}/catalogs/years/1999/brands` }],
      ['a brand not sold that year', { path: `${api}/catalogs/years/2000/brands/999999/models` }],
      ['a model not of that brand', { path: `${api}/catalogs/years/2020/brands/1/models/1061/versions` }],
      ['an unknown ZIP code', { path: `${api}/catalogs/zip-code/00000` }],
      ['a ZIP code of 4 digits', { path: `${api}/catalogs/zip-code/6700` }],
      ['a percent-encoded ZIP code', { path: `${api}/catalogs/zip-code/%3006700` }],
      ['another route', { path: `${api}/leads` }],
      ['a path in other case', { path: `${api}/Catalogs/years` }],
    ];
    for (const [name, request] of cases) {
      const headers = request.headers ?? auth(); // cases with their own headers send only those
      const answer = await overHttp(server.base, { ...request, headers });
      assert.equal(answer.status, leftToFastify, `${name}: ${answer.status} ${answer.body}`);
    }
    // Once the guard has checked the new token, its reads are answered at once too.
    assert.equal((await throughFastify(t, { path: `${api}/catalogs/years`, headers: { authorization: `Bearer ${unused.token}` } })).status, 200);
    assert.equal((await overHttp(server.base, { path: `${api}/catalogs/years`, headers: { authorization: `Bearer ${unused.token}` } })).status, 200);
  });

  test('a revoked credential\'s reads go back to Fastify at once, which answers 401', async () => {
    const revoked = await t.newPartner();
    const headers = { authorization: `Bearer ${revoked.token}` };
    const path = `${api}/catalogs/years`;
    await throughFastify(t, { path, headers });
    assert.equal((await overHttp(server.base, { path, headers })).status, 200);
    const res = await t.app.inject({ method: 'DELETE', url: `/admin/credentials/${revoked.consumerKey}`, headers: t.admin });
    assert.equal(res.statusCode, 204, res.body);
    assert.equal((await overHttp(server.base, { path, headers })).status, leftToFastify);
    assert.equal((await throughFastify(t, { path, headers })).status, 401);
  });

  test('while disabled (logging at debug, closing) it leaves every request to Fastify', async () => {
    const disabled = await readPathServer(t, () => false);
    try {
      assert.equal((await overHttp(disabled.base, { path: `${api}/catalogs/years`, headers: auth() })).status, leftToFastify);
    } finally {
      await disabled.close();
    }
  });
});

describe('the catalog read path and the per-company limit (RATE_LIMIT_PER_MINUTE=3)', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof readPathServer>>;
  before(async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' }, logLevel: 'info' });
    server = await readPathServer(t);
  });
  after(async () => {
    await server.close();
    await t.close();
  });

  test('shares the count with Fastify\'s guard and leaves the 429 to it', async () => {
    const headers = { authorization: `Bearer ${t.partner.token}` };
    const path = `${api}/catalogs/zip-code/06700`;
    const first = await throughFastify(t, { path, headers });
    assert.equal(first.headers['x-ratelimit-remaining'], '2');
    const second = await overHttp(server.base, { path, headers });
    assert.equal(second.status, 200);
    assert.equal(second.headers['x-ratelimit-limit'], '3');
    assert.equal(second.headers['x-ratelimit-remaining'], '1');
    assert.equal((await overHttp(server.base, { path, headers })).headers['x-ratelimit-remaining'], '0');
    assert.equal((await overHttp(server.base, { path, headers })).status, leftToFastify);
    const limited = await throughFastify(t, { path, headers });
    assert.equal(limited.status, 429);
    assert.equal(JSON.parse(limited.body.toString()).code, 4290);
    assert.ok(Number(limited.headers['retry-after']) > 0 && Number(limited.headers['retry-after']) <= 60, limited.headers['retry-after']);
  });
});

describe('the listening app offers catalog reads to the read path', () => {
  for (const logLevel of ['info', 'debug']) {
    test(`at ${logLevel}: ${logLevel === 'info' ? 'answered on the read path, counted in /metrics' : 'every read through Fastify, with its debug line'}`, async () => {
      const t = await buildTestApp({ logLevel });
      const offered = mock.method(t.container.auth, 'authenticateCached');
      try {
        const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
        const headers = { authorization: `Bearer ${t.partner.token}` };
        const path = `${api}/catalogs/years/2020/brands`;
        const routed = await throughFastify(t, { path, headers });
        const listened = await overHttp(base, { path, headers });
        assert.equal(listened.status, 200);
        assert.ok(listened.body.equals(routed.body));
        assert.deepEqual(comparable(listened.headers), comparable(routed.headers));
        const unauthorized = await overHttp(base, { path, headers: { authorization: 'Bearer nope' } });
        assert.equal(unauthorized.status, 401);
        assert.equal(JSON.parse(unauthorized.body.toString()).code, 4010);
        const metrics = await overHttp(base, { path: '/metrics', headers: t.admin });
        const series = `autofin_http_requests_total{method="GET",route="${path.replace('2020', ':yearId')}",status="200"} 2`;
        assert.ok(metrics.body.toString().includes(series), series);
        const brandsLines = t.logs.filter((l) => l.includes('request completed') && l.includes('/2020/brands') && l.includes('"status":200'));
        if (logLevel === 'info') {
          assert.ok(offered.mock.callCount() >= 1, 'the read path was offered the read');
          assert.equal(brandsLines.length, 0);
        } else {
          assert.equal(offered.mock.callCount(), 0);
          assert.equal(brandsLines.length, 2, 'a debug line for each read');
        }
      } finally {
        offered.mock.restore();
        await t.close();
      }
    });
  }
});
