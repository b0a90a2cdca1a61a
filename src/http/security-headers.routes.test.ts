/**
 * Headers a lender's security review checks on every kind of answer: nothing with people's data may
 * be cached (`Cache-Control: no-store`), and no answer may be sniffed as another type
 * (`X-Content-Type-Options: nosniff`). The catalogs, which carry no personal data, keep their caching.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { readyLead } from '../../test/lead-fixture.ts';

describe('answers with personal data are not cached and no answer is sniffed', () => {
  let t: TestApp;
  let leadId: string;
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    leadId = await readyLead(t);
  });
  after(() => t.close());

  test("partner reads, the lender's detail, list and export, and errors say no-store and nosniff", async () => {
    const requests: { url: string; headers: Record<string, string>; status: number }[] = [
      { url: `${api}/leads/${leadId}`, headers: t.partner.headers, status: 200 },
      { url: `${api}/leads`, headers: t.partner.headers, status: 200 },
      { url: `${api}/leads/${leadId}/events`, headers: t.partner.headers, status: 200 },
      { url: `/admin/leads/${leadId}`, headers: t.admin, status: 200 },
      { url: '/admin/leads', headers: t.admin, status: 200 },
      { url: '/admin/leads/export?format=csv', headers: t.admin, status: 200 },
      { url: `${api}/leads/${crypto.randomUUID()}`, headers: t.partner.headers, status: 404 },
      { url: `${api}/leads/${leadId}`, headers: {}, status: 401 },
      { url: '/no/such/route', headers: {}, status: 404 },
    ];
    for (const { url, headers, status } of requests) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      assert.equal(res.statusCode, status, `${url}: ${show(res)}`);
      assert.equal(res.headers['cache-control'], 'no-store', url);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
    }
  });

  test('a catalog answer keeps its own caching, and is not sniffed either', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${api}/catalogs/zip-code/06700`,
      headers: t.partner.headers,
    });
    assert.equal(res.statusCode, 200, show(res));
    assert.notEqual(res.headers['cache-control'], 'no-store');
    assert.match(String(res.headers['cache-control']), /max-age/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });
});
