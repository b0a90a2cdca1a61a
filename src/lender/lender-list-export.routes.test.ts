import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type Partner, type TestApp } from '../../test/helper.ts';
import { assertError, leadDefaults, readyLead } from '../../test/lead-fixture.ts';
import { bearer, operatorKey, verifiedLead } from '../../test/lender-fixture.ts';
import { exportColumns } from './lead-export.ts';

let t: TestApp;
let other: Partner;
let analyst: { id: string; key: string };
const ids: Record<string, string> = {};

const get = (url: string, headers = t.admin) => t.app.inject({ method: 'GET', url, headers });
const listIds = async (query: string) => {
  const res = await get(`/admin/leads${query}`);
  assert.equal(res.statusCode, 200, show(res));
  return res.json().items.map((i: { id: string }) => i.id) as string[];
};
const exports = async () =>
  (
    await t.database.db.query<{ operator_id: string; filter: Record<string, unknown>; row_count: number }>(
      "select operator_id, filter, row_count from audit_records where action = 'leads.export' order by seq",
    )
  ).rows;

function listAndExportTests1() {
  test(
    'the list holds every company’s leads, newest first, as ' + 'summaries without personal data, and is not audited',
    async () => {
      const res = await get('/admin/leads', bearer(analyst.key));
      assert.equal(res.statusCode, 200, show(res));
      const { items, nextCursor } = res.json();
      assert.deepEqual(
        items.map((i: { id: string }) => i.id),
        [ids.refused, ids.otherCompany, ids.good],
      );
      assert.equal(nextCursor, null);
      assert.deepEqual(Object.keys(items[0]).sort(), [
        'affiliate',
        'companyId',
        'createdAt',
        'decision',
        'erasedAt',
        'externalAutoId',
        'id',
        'outcomeStatus',
        'status',
        'updatedAt',
      ]);
      assert.equal(items[1].companyId, other.companyId);
      for (const secret of [
        leadDefaults.phone,
        leadDefaults.email,
        leadDefaults.person.lastName,
        leadDefaults.address.street,
      ]) {
        assert.ok(!res.body.includes(secret), secret);
      }
      assert.equal((await t.database.db.query('select 1 from audit_records')).rows.length, 0);
    },
  );

  test(
    'filters: company, status, decision, affiliate, created ' +
      'range (from inclusive, to exclusive), and cursor pages',
    async () => {
      assert.deepEqual(await listIds(`?companyId=${other.companyId}`), [ids.otherCompany]);
      assert.deepEqual(await listIds('?status=IN_PROGRESS'), [ids.otherCompany]);
      assert.deepEqual(await listIds('?decision=NOT_PREQUALIFIED'), [ids.refused]);
      assert.deepEqual(await listIds(`?affiliate=${other.userId}`), []);
      const good = (await get(`/admin/leads?decision=PREQUALIFIED`)).json().items[0];
      assert.equal(good.id, ids.good);
      assert.deepEqual(
        await listIds(
          `?createdFrom=${encodeURIComponent(good.createdAt)}&createdTo=${encodeURIComponent(good.createdAt)}`,
        ),
        [],
      );
      assert.ok((await listIds(`?createdFrom=${encodeURIComponent(good.createdAt)}`)).includes(ids.good));
      assert.ok(!(await listIds(`?createdTo=${encodeURIComponent(good.createdAt)}`)).includes(ids.good));
      const first = (await get('/admin/leads?limit=2')).json();
      assert.deepEqual(
        first.items.map((i: { id: string }) => i.id),
        [ids.refused, ids.otherCompany],
      );
      const second = (await get(`/admin/leads?limit=2&cursor=${first.nextCursor}`)).json();
      assert.deepEqual([second.items.map((i: { id: string }) => i.id), second.nextCursor], [[ids.good], null]);
      const bad = await get('/admin/leads?status=DONE&createdFrom=yesterday&cursor=zzz');
      assertError(bad, 400, 40015, 'Bad Request');
    },
  );
}

function listAndExportTests2() {
  test(
    'NDJSON is the default export: one line per lead with ' + 'its personal data, audited with filter and rows',
    async () => {
      const res = await get(`/admin/leads/export?companyId=${t.partner.companyId}`, {
        ...bearer(analyst.key),
        'x-request-id': 'export-1',
      });
      assert.equal(res.statusCode, 200, show(res));
      assert.match(String(res.headers['content-type']), /^application\/x-ndjson/);
      assert.match(String(res.headers['content-disposition']), /^attachment; filename="leads-.*\.ndjson"$/);
      const lines = res.body
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.deepEqual(
        lines.map((l) => l.id),
        [ids.refused, ids.good],
      );
      assert.deepEqual(Object.keys(lines[0]), [...exportColumns]);
      assert.equal(lines[1].phone, leadDefaults.phone);
      assert.equal(lines[1].lastName, leadDefaults.person.lastName);
      assert.equal(lines[0].reasons, 'LOW_DOWN_PAYMENT');
      const [record] = await exports();
      assert.deepEqual(record, {
        operator_id: analyst.id,
        filter: { companyId: t.partner.companyId, format: 'ndjson' },
        row_count: 2,
      });
    },
  );

  test('CSV has a header and one row per lead; an unknown format is 400 / 40015 and exports nothing', async () => {
    const res = await get('/admin/leads/export?format=csv&status=PREQUALIFIED');
    assert.equal(res.statusCode, 200, show(res));
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    const rows = res.body.trimEnd().split('\r\n');
    assert.equal(rows[0], exportColumns.join(','));
    assert.equal(rows.length, 2);
    assert.ok(rows[1].startsWith(`${ids.good},${t.partner.companyId},PREQUALIFIED,PREQUALIFIED,`), rows[1]);
    const bad = assertError(await get('/admin/leads/export?format=xlsx'), 400, 40015, 'Bad Request');
    assert.deepEqual(
      bad.additionalData.errors.map((e: { field: string }) => e.field),
      ['format'],
    );
    const audited = await exports();
    assert.equal(audited.length, 2);
    assert.deepEqual(audited[1], {
      operator_id: 'admin-token',
      filter: { status: 'PREQUALIFIED', format: 'csv' },
      row_count: 1,
    });
  });
}

function listAndExportTests3() {
  test(
    'roles: an analyst may not erase or purge (403 / 4030); ' +
      'partner tokens and deleted keys get 401 on every lender route',
    async () => {
      const analystHeaders = bearer(analyst.key);
      assertError(
        await t.app.inject({
          method: 'DELETE',
          url: `/admin/leads/${ids.good}/personal-data`,
          headers: analystHeaders,
        }),
        403,
        4030,
        'Forbidden',
      );
      assertError(
        await t.app.inject({
          method: 'POST',
          url: '/admin/leads/purge',
          headers: analystHeaders,
          payload: { dryRun: true },
        }),
        403,
        4030,
        'Forbidden',
      );
      assertError(await get('/admin/audit', analystHeaders), 403, 4030, 'Forbidden');
      assert.equal(
        (await get(`/admin/leads/${ids.good}`)).json().contact.phone,
        leadDefaults.phone,
        'nothing was erased',
      );
      const gone = await operatorKey(t, 'admin', 'leaving');
      assert.equal(
        (await t.app.inject({ method: 'DELETE', url: `/admin/operators/${gone.id}`, headers: t.admin })).statusCode,
        204,
      );
      const routes: ['GET' | 'DELETE' | 'POST', string][] = [
        ['GET', '/admin/leads'],
        ['GET', `/admin/leads/${ids.good}`],
        ['GET', '/admin/leads/export'],
        ['DELETE', `/admin/leads/${ids.good}/personal-data`],
        ['POST', '/admin/leads/purge'],
        ['GET', '/admin/audit'],
      ];
      for (const headers of [bearer(gone.key), { authorization: t.partner.headers.authorization }, {}]) {
        for (const [method, url] of routes) {
          const res = await t.app.inject({ method, url, headers, ...(method === 'POST' ? { payload: {} } : {}) });
          assertError(res, 401, 4010, 'Unauthorized');
        }
      }
    },
  );
}

describe('the lender lists and exports every company’s leads', () => {
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    analyst = await operatorKey(t, 'analyst');
    other = await t.newPartner();
    ids.good = (await verifiedLead(t, 'SMS')).leadId;
    ids.otherCompany = await readyLead(t, { partner: other });
    ids.refused = (await verifiedLead(t, 'SMS', { downPayment: 10_000 })).leadId;
  });
  after(() => t.close());
  listAndExportTests1();
  listAndExportTests2();
  listAndExportTests3();
});
