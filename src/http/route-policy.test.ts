import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { policy } from './route-policy.ts';

type Field = { field: string; errorDetail: string };

describe('a route policy', () => {
  let t: TestApp;
  const checked: unknown[] = [];
  before(async () => {
    t = await buildTestApp({
      beforeReady: (app) => {
        // Hidden: routes only this test needs are not part of the OpenAPI document.
        app.post(
          '/test/policy',
          {
            config: policy({
              invalidInput: 'contact',
              bodyChecks: (body) => {
                checked.push(body);
                return String(body.name).startsWith('unknown')
                  ? [{ field: 'name', errorDetail: 'is not a known name' }]
                  : [];
              },
              queryChecks: (query) => (query.day === 'never' ? [{ field: 'day', errorDetail: 'is not a day' }] : []),
            }),
            schema: {
              hide: true,
              body: Type.Object({ name: Type.String({ maxLength: 10 }), size: Type.Integer() }),
              querystring: Type.Object({ day: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer()) }),
            },
          },
          async () => ({ handled: true }),
        );
      },
    });
  });
  after(() => t.close());
  const post = (url: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });

  test(
    'a refused request lists the schema errors of every ' + 'part and the failing data checks, in its own code',
    async () => {
      const res = await post('/test/policy?day=never&limit=many', { name: 'unknown', size: 'large' });
      assert.equal(res.statusCode, 400, show(res));
      const body = res.json();
      assert.equal(body.code, 400, show(res));
      const fields = (body.additionalData.errors as Field[]).map((e) => e.field).sort();
      assert.deepEqual(fields, ['day', 'limit', 'name', 'size'], show(res));
    },
  );

  test('a field the schema already refused is listed once', async () => {
    const res = await post('/test/policy', { name: 'unknown-and-long', size: 1 });
    assert.equal(res.statusCode, 400, show(res));
    assert.deepEqual(
      res.json().additionalData.errors,
      [{ field: 'name', errorDetail: 'must be at most 10 characters' }],
      show(res),
    );
  });

  test('a request the schema accepts reaches the handler without the data checks', async () => {
    checked.length = 0;
    const res = await post('/test/policy?day=never', { name: 'unknown', size: 1 });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(res.json(), { handled: true });
    assert.deepEqual(checked, []);
  });
});
