/**
 * Property: whatever request is made of any operation of the served OpenAPI document, the answer
 * is never a 5xx, every error is an ErrorResponse, and a refused request changes nothing (the
 * lead it targets reads the same before and after). CI runs a fixed seed; elsewhere a random one,
 * printed so a failure can be replayed with FUZZ_SEED (and FUZZ_RUNS for the number of requests: 300 in
 * `npm test`, 2,000 in `npm run test:reliability`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { adminToken, api, buildTestApp, show, type TestApp } from './helper.ts';
import { readyLead } from './lead-fixture.ts';
import { atVolume } from './volume.ts';
import {
  createRequestArbitrary,
  nestedJson,
  type FuzzRequest,
  type OpenApiDocument,
} from './fuzz/request-arbitraries.ts';

const seed = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : process.env.CI
    ? 20261123
    : Math.floor(Math.random() * 2 ** 31);
const runs = Number(process.env.FUZZ_RUNS ?? atVolume(300, 2000));
const errorKeys = ['additionalData', 'code', 'message', 'requestId', 'timestamp'];

function assertErrorResponse(request: FuzzRequest, status: number, body: string, where: string): void {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body);
  } catch {
    assert.fail(`${where}: ${status} is not JSON: ${body.slice(0, 200)}`);
  }
  assert.deepEqual(Object.keys(parsed).sort(), errorKeys, `${where}: not an ErrorResponse: ${body.slice(0, 300)}`);
  assert.ok(
    (Number.isInteger(parsed.code) && String(parsed.code).startsWith(String(status).slice(0, 3))) || status === 412,
    `${where}: code ${String(parsed.code)} for ${status}`,
  );
  assert.equal(typeof parsed.message, 'string', where);
  assert.ok(parsed.additionalData === null || typeof parsed.additionalData === 'object', where);
  assert.ok(!Number.isNaN(Date.parse(String(parsed.timestamp))), where);
  void request;
}

describe(`every operation of the OpenAPI document, fuzzed (FUZZ_SEED=${seed}, ${runs} requests)`, () => {
  let t: TestApp;
  let leadUrl: string;
  let arbitrary: fc.Arbitrary<FuzzRequest>;
  let document: OpenApiDocument;
  let leadId: string;

  before(async () => {
    t = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '10000000', TOKEN_RATE_LIMIT_PER_MINUTE: '10000000' },
      logLevel: 'warn',
    });
    leadId = await readyLead(t);
    const other = await t.newPartner();
    const otherLeadId = (await t.app.inject({ method: 'POST', url: `${api}/leads`, headers: other.headers })).json()
      .id as string;
    await t.app.inject({ method: 'POST', url: `${api}/leads`, headers: t.partner.headers });
    const cursor =
      (
        await t.app.inject({
          method: 'GET',
          url: `${api}/leads?limit=1&status=IN_PROGRESS`,
          headers: t.partner.headers,
        })
      ).json().nextCursor ?? 'none';
    leadUrl = `${api}/leads/${leadId}`;
    document = (await t.app.inject({ method: 'GET', url: `${api}/openapi.json` })).json() as OpenApiDocument;
    // Each admitted call copies the whole database (seconds): its answers are tested in src/backup/.
    delete document.paths['/admin/backup'];
    assert.ok(Object.keys(document.paths).length > 20, 'the served document lists the operations');
    arbitrary = createRequestArbitrary(document, {
      leadId,
      otherLeadId,
      companyId: t.partner.companyId,
      consumerKey: (await t.newPartner()).consumerKey,
      cursor,
      authorization: { partner: t.partner.headers.authorization, admin: `Bearer ${adminToken}` },
    });
    console.log(`fuzzing with FUZZ_SEED=${seed} FUZZ_RUNS=${runs}`);
  });
  after(() => t.close());

  test('a body nested deeper than 32 levels is a 400 / 40015 on every operation that takes a body', async () => {
    const deep = nestedJson(10_000);
    assert.ok(Buffer.byteLength(deep) < 64 * 1024, 'under the body limit, so only its depth can refuse it');
    const state = (await t.app.inject({ method: 'GET', url: leadUrl, headers: t.partner.headers })).body;
    let tried = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods).filter((m) => !['get', 'head'].includes(m))) {
        const url = path.replace('{leadId}', leadId).replace(/\{[^}]+\}/g, 'x1');
        const authorization = path.startsWith('/admin') ? `Bearer ${adminToken}` : t.partner.headers.authorization;
        for (const accept of ['application/json', 'application/xml']) {
          const res = await t.app.inject({
            method: method.toUpperCase() as 'POST',
            url,
            payload: deep,
            headers: { authorization, 'content-type': 'application/json', accept },
          });
          assert.equal(res.statusCode, 400, `${method} ${path}: ${show(res)}`);
          const body = res.json();
          assert.equal(body.code, 40015, `${method} ${path}: ${show(res)}`);
          assert.deepEqual(body.additionalData, {
            errors: [{ field: 'body', errorDetail: 'is nested deeper than 32 levels' }],
          });
          tried++;
        }
      }
    }
    assert.ok(tried > 20, `every operation with a body was tried (${tried})`);
    const token = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      payload: nestedJson(33),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(token.statusCode, 400, show(token));
    assert.equal(token.json().code, 40015);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: leadUrl, headers: t.partner.headers })).body,
      state,
      'nothing changed',
    );
  });

  test('32 levels are read as any body is; 33 are refused', async () => {
    const at = (depth: number) =>
      t.app.inject({
        method: 'PATCH',
        url: `${api}/webhooks/${crypto.randomUUID()}`,
        payload: nestedJson(depth),
        headers: { ...t.partner.headers, 'content-type': 'application/json' },
      });
    const ok = await at(32);
    assert.notEqual(ok.json().additionalData?.errors?.[0]?.errorDetail, 'is nested deeper than 32 levels', show(ok));
    const refused = await at(33);
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().additionalData.errors[0].errorDetail, 'is nested deeper than 32 levels');
  });

  test(
    'never a 5xx, every error an ErrorResponse, a refused request changes nothing',
    { timeout: 300_000 },
    async () => {
      const readLead = async () =>
        (await t.app.inject({ method: 'GET', url: leadUrl, headers: t.partner.headers })).body;
      let state = await readLead();
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(arbitrary, async (request) => {
          const res = await t.app.inject({
            method: request.method as 'GET',
            url: request.url,
            headers: request.headers,
            payload: request.payload,
          });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const where = `${request.operation} ${request.method} ${request.url} ${JSON.stringify(request.headers)} ${String(request.payload).slice(0, 200)}`;
          assert.ok(res.statusCode < 500, `${where}: ${show(res)}`);
          if (res.statusCode >= 400) assertErrorResponse(request, res.statusCode, res.body, where);
          if (!request.targetsLead) return;
          const now = await readLead();
          if (res.statusCode >= 400) assert.equal(now, state, `${where}: a refused request changed the lead`);
          state = now;
        }),
        { seed, numRuns: runs, endOnFailure: true },
      );
      console.log(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
      assert.ok(
        [...statuses.keys()].some((s) => s < 300),
        'some requests succeed',
      );
      assert.ok(
        [...statuses.keys()].some((s) => s >= 400),
        'some requests are refused',
      );
    },
  );
});
