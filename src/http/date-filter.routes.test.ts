/**
 * Every route and console page that takes a date: a date that does not exist (month 13, day 32,
 * February 30) is 400 / 40015 naming the field (the console: a Spanish message naming it), and a real date
 * at the edge of the range, 9999-12-31 at any time of that day, is answered, never with a 500.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { consoleClient, consoleOperator, type ConsoleClient } from '../../test/console-client.ts';

const impossible = ['2026-13-01', '2026-12-32', '2026-02-30', '2026-02-29T10:00:00Z', '2026-04-31T00:00:00-06:00'];
const edge = ['9999-12-31', '9999-12-31T00:00:00Z', '9999-12-31T06:00:00Z', '9999-12-31T23:59:59-06:00'];
const dayFilters = ['createdFrom', 'createdTo'];

describe('dates in filters: impossible ones refused by field, the last day answered', () => {
  let t: TestApp;
  let officer: ConsoleClient;
  const routes = () => [`${api}/leads`, '/admin/leads', '/admin/leads/export', '/admin/reports/funnel'];
  const headersOf = (route: string) => (route.startsWith(api) ? t.partner.headers : t.admin);

  before(async () => {
    t = await buildTestApp({ database: 'own' });
    const password = 'correct horse battery';
    const email = await consoleOperator(t.app, t.admin, 'officer', password);
    officer = consoleClient(t.app);
    assert.equal((await officer.signIn(email, password)).statusCode, 303);
  });
  after(() => t.close());

  test('an impossible date is 400 / 40015 on its field, on every API route that takes one', async () => {
    for (const route of routes()) {
      for (const field of dayFilters) {
        for (const value of impossible) {
          const url = `${route}?${field}=${encodeURIComponent(value)}`;
          const res = await t.app.inject({ method: 'GET', url, headers: headersOf(route) });
          assert.equal(res.statusCode, 400, `${url}: ${show(res)}`);
          assert.equal(res.json().code, 40015, url);
          assert.deepEqual(
            res.json().additionalData.errors.map((f: { field: string }) => f.field),
            [field],
            url,
          );
        }
      }
    }
  });

  test('9999-12-31, at any time of that day, is answered on every API route, alone or as a window', async () => {
    for (const route of routes()) {
      for (const value of edge) {
        for (const query of [`createdFrom=${encodeURIComponent(value)}`, `createdTo=${encodeURIComponent(value)}`]) {
          const url = `${route}?${query}`;
          const res = await t.app.inject({ method: 'GET', url, headers: headersOf(route) });
          assert.equal(res.statusCode, 200, `${url}: ${show(res)}`);
        }
      }
      const window = `${route}?createdFrom=2026-01-01&createdTo=${encodeURIComponent('9999-12-31T23:59:59-06:00')}`;
      assert.equal((await t.app.inject({ method: 'GET', url: window, headers: headersOf(route) })).statusCode, 200);
    }
  });

  test('the console’s inbox and reports refuse a day that does not exist in Spanish, naming the field', async () => {
    const cases: [string, string][] = [
      ['from=2026-02-31', 'Desde'],
      ['to=2026-13-45', 'Hasta'],
      ['to=2026-99-99', 'Hasta'],
      ['to=2026-12-32', 'Hasta'],
      ['from=2026-01-01&to=2026-02-30', 'Hasta'],
    ];
    for (const page of ['/console/leads', '/console/reports']) {
      for (const [query, label] of cases) {
        const res = await officer.get(`${page}?${query}`);
        assert.equal(res.statusCode, 400, `${page}?${query}: ${res.statusCode}`);
        assert.match(res.body, new RegExp(`La fecha «${label}» no existe`), `${page}?${query}`);
      }
    }
  });

  test('the console’s inbox and reports answer 9999-12-31 as "Desde" and as "Hasta"', async () => {
    for (const page of ['/console/leads', '/console/reports']) {
      for (const query of ['from=9999-12-31', 'to=9999-12-31', 'from=9999-12-31&to=9999-12-31', 'to=2024-02-29']) {
        const res = await officer.get(`${page}?${query}`);
        assert.equal(res.statusCode, 200, `${page}?${query}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      }
    }
  });
});
