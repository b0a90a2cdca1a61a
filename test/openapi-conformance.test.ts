/**
 * The check every route test's answers go through (test/openapi-conformance.ts, hooked in by
 * test/helper.ts): it must refuse an undeclared status, a body outside its schema and a missing
 * header, and it must fail the test whose request got such an answer.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import { api, buildTestApp, show, type TestApp } from './helper.ts';
import { conformanceChecker, type ConformanceChecker } from './openapi-conformance.ts';
import { errorAnswers, ok } from '../src/http/openapi-answers.ts';

describe('answers are checked against the served OpenAPI document', () => {
  let t: TestApp;
  let checker: ConformanceChecker;
  let leadId: string;
  before(async () => {
    t = await buildTestApp({
      beforeReady: (app) => {
        // A route whose document says 200 `{n: integer}` but which can answer otherwise.
        app.get(
          '/drifting/:mode',
          {
            schema: {
              operationId: 'drift',
              summary: 'A route that breaks its own document',
              tags: ['operations'],
              security: [],
              params: Type.Object({ mode: Type.String() }),
              response: {
                200: ok('public', Type.Object({ n: Type.Integer() }), 'A number.'),
                ...errorAnswers({ access: 'public' }),
              },
            },
          },
          async (request, reply) => {
            const { mode } = request.params as { mode: string };
            // The typed reply only takes declared statuses: this route answers one anyway.
            if (mode === 'teapot')
              return (reply as unknown as { code(status: number): typeof reply }).code(418).send({ n: 1 });
            return { n: 1 };
          },
        );
      },
    });
    checker = conformanceChecker((await t.app.inject({ method: 'GET', url: `${api}/openapi.json` })).json());
    leadId = (await t.app.inject({ method: 'POST', url: `${api}/leads`, headers: t.partner.headers })).json().id;
  });
  after(() => t.close());

  test('an answer that keeps the document passes', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: t.partner.headers });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(checker.problems({ method: 'GET', url: `${api}/leads/${leadId}`, response: res }), []);
  });

  test('a status the operation does not declare fails the request that got it', async () => {
    await assert.rejects(
      t.app.inject({ method: 'GET', url: '/drifting/teapot' }),
      /status 418 is not declared for GET \/drifting\/\{mode\}/,
    );
    const res = await t.app.inject({ method: 'GET', url: '/drifting/fine' });
    assert.equal(res.statusCode, 200, show(res));
  });

  test('a body outside the declared schema is refused, naming the field', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: t.partner.headers });
    const body = JSON.stringify({ ...res.json(), status: 'SOMETHING_ELSE' });
    const found = checker.problems({ method: 'GET', url: `${api}/leads/${leadId}`, response: { ...res, body } });
    assert.ok(
      found.some((p) => p.startsWith('body/status')),
      found.join('\n'),
    );
  });

  test('a header the document says is always sent must be there', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: t.partner.headers });
    const { ['x-ratelimit-remaining']: _dropped, ...headers } = res.headers;
    const found = checker.problems({ method: 'GET', url: `${api}/leads/${leadId}`, response: { ...res, headers } });
    assert.deepEqual(found, ['header X-RateLimit-Remaining is declared as always sent but is missing']);
  });

  test('an answer with a body where the document declares none is refused', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `${api}/leads/${leadId}/loan-info`,
      headers: t.partner.headers,
      payload: { term: 48 },
    });
    assert.equal(res.statusCode, 204, show(res));
    const found = checker.problems({
      method: 'PUT',
      url: `${api}/leads/${leadId}/loan-info`,
      response: { ...res, body: '{}' },
    });
    assert.match(found.join('\n'), /declares no body/);
  });

  test('another method on a documented path is checked against the path’s 405', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: `${api}/leads/${leadId}`, headers: t.partner.headers });
    assert.equal(res.statusCode, 405, show(res));
    assert.deepEqual(checker.problems({ method: 'PATCH', url: `${api}/leads/${leadId}`, response: res }), []);
  });
});
