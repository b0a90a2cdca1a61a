import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { assertError, readyLead } from '../../test/lead-fixture.ts';

describe('GET /admin/audit', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.admin });

  test('lists every read, export and erasure newest first, in cursor pages', async () => {
    const leadId = await readyLead(t);
    const read = await t.app.inject({
      method: 'GET',
      url: `/admin/leads/${leadId}`,
      headers: { ...t.admin, 'x-request-id': 'audit-read' },
    });
    assert.equal(read.statusCode, 200, show(read));
    const exported = await t.app.inject({
      method: 'GET',
      url: `/admin/leads/export?format=csv&companyId=${t.partner.companyId}`,
      headers: t.admin,
    });
    assert.equal(exported.statusCode, 200, show(exported));
    const erased = await t.app.inject({
      method: 'DELETE',
      url: `/admin/leads/${leadId}/personal-data`,
      headers: t.admin,
    });
    assert.equal(erased.statusCode, 204, show(erased));

    const first = await get('/admin/audit?limit=2');
    assert.equal(first.statusCode, 200, show(first));
    const page1 = first.json();
    assert.deepEqual(
      page1.items.map((r: { action: string }) => r.action),
      ['lead.personal_data_erased', 'leads.export'],
    );
    assert.deepEqual(
      { ...page1.items[1], id: undefined, at: undefined, requestId: undefined },
      {
        id: undefined,
        at: undefined,
        requestId: undefined,
        operatorId: 'admin-token',
        action: 'leads.export',
        leadId: null,
        filter: { companyId: t.partner.companyId, format: 'csv' },
        rows: 1,
        clientAddress: '127.0.0.1',
      },
    );
    assert.equal(typeof page1.nextCursor, 'string');
    const page2 = (await get(`/admin/audit?limit=2&cursor=${page1.nextCursor}`)).json();
    assert.deepEqual(
      page2.items.map((r: { action: string; leadId: string; requestId: string; rows: null }) => [
        r.action,
        r.leadId,
        r.requestId,
        r.rows,
      ]),
      [['lead.read', leadId, 'audit-read', null]],
    );
    assert.equal(page2.nextCursor, null);
    assertError(await get('/admin/audit?cursor=not-a-cursor'), 400, 40015, 'Bad Request');
    assertError(await get('/admin/audit?limit=0'), 400, 40015, 'Bad Request');
  });

  test('no route deletes audit records', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/admin/audit', headers: t.admin });
    assert.ok([404, 405].includes(res.statusCode), show(res));
    assert.equal((await get('/admin/audit')).json().items.length, 3);
  });
});
