import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';
import { setImmediate as tick } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';

const internalDetail = 'relation "leads_secret_table" does not exist at /srv/autofin/src/db.ts:42';
type Field = { field: string; errorDetail: string };

/** Every error is the ErrorResponse: exactly these five fields, the request id of the answer. */
function assertErrorResponse(res: LightMyRequestResponse, status: number, code: number, message: string) {
  assert.equal(res.statusCode, status, show(res));
  assert.match(String(res.headers['content-type']), /^application\/json/, show(res));
  const body = res.json();
  assert.deepEqual(
    Object.keys(body).sort(),
    ['additionalData', 'code', 'message', 'requestId', 'timestamp'],
    show(res),
  );
  assert.equal(body.code, code, show(res));
  assert.equal(body.message, message, show(res));
  assert.equal(body.requestId, res.headers['x-request-id'], show(res));
  assert.equal(new Date(body.timestamp).toISOString(), body.timestamp, show(res));
  return body;
}

let t: TestApp;
const postJson = (url: string, payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...t.admin, ...headers },
    payload,
  });

function errorRenderingTests1() {
  test('malformed JSON is 400 / 40015 naming the body', async () => {
    for (const payload of ['{"name": "Autos', '{name: 1}', '[1,2', 'nul']) {
      const res = await postJson('/admin/companies', payload);
      const body = assertErrorResponse(res, 400, 40015, 'Bad Request');
      assert.deepEqual(
        body.additionalData.errors.map((e: Field) => e.field),
        ['body'],
        show(res),
      );
    }
  });

  test('a __proto__ key in JSON is refused rather than parsed', async () => {
    const res = await postJson('/admin/companies', '{"name":"x","__proto__":{"admin":true}}');
    assertErrorResponse(res, 400, 40015, 'Bad Request');
  });

  test('a body over 64 KiB is 413 / 4130', async () => {
    const res = await postJson('/admin/companies', JSON.stringify({ name: 'x'.repeat(65 * 1024) }));
    assertErrorResponse(res, 413, 4130, 'Payload Too Large');
    const token = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ consumer_key: 'k', consumer_secret: 's'.repeat(70_000) }),
    });
    assertErrorResponse(token, 413, 4130, 'Payload Too Large');
  });

  test('a body just under 64 KiB is read (and then validated)', async () => {
    const res = await postJson('/admin/companies', JSON.stringify({ name: 'x'.repeat(60 * 1024) }));
    assertErrorResponse(res, 400, 40015, 'Bad Request');
  });

  test('a text/plain or form body on a JSON route is 415 / 4150', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/token',
        headers: { 'content-type': type },
        payload: 'consumer_key=a&consumer_secret=b',
      });
      assertErrorResponse(res, 415, 4150, 'Unsupported Media Type');
    }
  });

  test('an unknown route is 404 / 4044', async () => {
    for (const url of ['/nope', '/mx/b2b/autofin/api/nope', '/admin/nope?x=1', '/auth/token/extra']) {
      assertErrorResponse(await t.app.inject({ method: 'GET', url }), 404, 4044, 'Not Found');
    }
  });

  test('a known path with another method is 405 / 4050 with Allow', async () => {
    const cases: [string, string, RegExp][] = [
      ['GET', '/auth/token', /^POST$/],
      ['DELETE', '/auth/token', /^POST$/],
      ['POST', '/health/live', /\bGET\b/],
      ['PUT', `/admin/companies/${randomUUID()}/credentials`, /^GET, (HEAD, )?POST$/],
      ['PATCH', '/admin/companies', /^GET, (HEAD, )?POST$/],
      ['OPTIONS', '/admin/leads/purge', /^POST$/],
      ['QUERY', `${api}/leads`, /^GET, (HEAD, )?POST$/],
      ['PROPFIND', `${api}/leads`, /^GET, (HEAD, )?POST$/],
    ];
    for (const [method, url, allow] of cases) {
      const res = await t.app.inject({ method: method as 'GET', url });
      assertErrorResponse(res, 405, 4050, 'Method Not Allowed');
      assert.match(String(res.headers.allow), allow, `${method} ${url}: Allow ${res.headers.allow}`);
    }
  });

  test('QUERY over a real connection, with or without a content type, is 405 like any other method', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const heads = [
      `QUERY ${api}/leads HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      `QUERY ${api}/leads HTTP/1.1\r\nHost: x\r\nContent-Type: ` +
        `application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    ];
    for (const head of heads) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(head));
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      assert.match(answer, /^HTTP\/1\.1 405 /, answer);
      assert.match(answer, /\r\nallow: GET, (HEAD, )?POST\r\n/i, answer);
      assert.match(answer, /"code":4050/, answer);
    }
  });
}

function errorRenderingTests2() {
  test('a crash is 500 / 5000 with a generic message and nothing internal in the body', async () => {
    for (const url of ['/test/crash', '/test/crash-with-status']) {
      const res = await t.app.inject({ method: 'GET', url });
      const body = assertErrorResponse(res, 500, 5000, 'Internal Server Error');
      assert.equal(body.additionalData, null, show(res));
      for (const leak of ['leads_secret_table', '/srv/autofin', 'db.ts', 'stack', '    at ']) {
        assert.ok(!res.body.includes(leak), `"${leak}" leaked: ${show(res)}`);
      }
    }
  });

  test('a crash is logged with its request id for operators', async () => {
    const requestId = `crash-${randomUUID()}`;
    await t.app.inject({ method: 'GET', url: '/test/crash', headers: { 'x-request-id': requestId } });
    await tick();
    const lines = t.logs.map((l) => JSON.parse(l)).filter((l) => l.requestId === requestId && l.level >= 50);
    assert.equal(lines.length, 1, t.logs.slice(-5).join('\n'));
    assert.match(lines[0].err.message, /leads_secret_table/);
  });

  test('a well-formed X-Request-Id is echoed in the header, the body and every log line of the request', async () => {
    for (const requestId of ['partner-req-0001', 'A.b_c-9', 'x'.repeat(64)]) {
      const first = t.logs.length;
      const res = await t.app.inject({
        method: 'GET',
        url: `/nope/${requestId}`,
        headers: { 'x-request-id': requestId },
      });
      await tick();
      assert.equal(res.headers['x-request-id'], requestId);
      assert.equal(res.json().requestId, requestId, show(res));
      const lines = t.logs.slice(first).map((l) => JSON.parse(l));
      assert.ok(lines.length >= 1, t.logs.slice(first).join('\n'));
      for (const line of lines) assert.equal(line.requestId, requestId, JSON.stringify(line));
    }
  });

  test('a malformed X-Request-Id is replaced by a generated one', async () => {
    for (const given of ['x'.repeat(65), 'has spaces in it', 'semi;colon', 'ñandú', '']) {
      const res = await t.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': given } });
      const generated = String(res.headers['x-request-id']);
      assert.notEqual(generated, given);
      assert.match(generated, /^[A-Za-z0-9._-]{1,64}$/);
      assert.equal(res.json().requestId, generated, show(res));
    }
  });

  test('without X-Request-Id each request gets its own id', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/health/live' });
    const b = await t.app.inject({ method: 'GET', url: '/health/live' });
    assert.match(String(a.headers['x-request-id']), /^[A-Za-z0-9._-]{1,64}$/);
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
  });

  test('validation lists every failing field at once', async () => {
    const res = await postJson(
      `/admin/companies/${t.partner.companyId}/affiliates`,
      JSON.stringify({ user_id: 'nope', user_type: '', extra: 1 }),
    );
    const body = assertErrorResponse(res, 400, 40015, 'Bad Request');
    const errors: Field[] = body.additionalData.errors;
    assert.deepEqual(errors.map((e) => e.field).sort(), ['extra', 'user_id', 'user_type'], show(res));
    for (const error of errors) assert.ok(error.errorDetail.length > 0, show(res));
    assert.equal(errors.find((e) => e.field === 'extra')?.errorDetail, 'is not a field of this request');
  });
}

describe('every failure is rendered as an ErrorResponse', () => {
  before(async () => {
    t = await buildTestApp({
      beforeReady: (app) => {
        // Hidden: routes only this test needs are not part of the OpenAPI document.
        app.get('/test/crash', { schema: { hide: true } }, async () => {
          throw new Error(internalDetail);
        });
        app.get('/test/crash-with-status', { schema: { hide: true } }, async () => {
          throw Object.assign(new Error(internalDetail), { statusCode: 503 });
        });
      },
    });
  });
  after(() => t.close());
  errorRenderingTests1();
  errorRenderingTests2();
});
