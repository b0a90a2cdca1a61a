/**
 * The person's access to their data (docs/lender-api.md, "The person's access"): everything held about a
 * lead's person, decrypted, for admins only, audited, and after an erasure only what is left.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { png, uploadForm } from '../../test/document-files.ts';
import { runAutofin } from '../../test/cli-run.ts';
import { assertError, leadDefaults, readyLead } from '../../test/lead-fixture.ts';
import { bearer, operatorKey, verifiedLead } from '../../test/lender-fixture.ts';
import { bodies, setOutcome } from '../../test/outcome-fixture.ts';

describe("the person's access to the data held about them", () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const access = (leadId: string, headers: Record<string, string> = t.admin) =>
    t.app.inject({ method: 'GET', url: `/admin/leads/${leadId}/personal-data`, headers });

  test('every personal datum held, decrypted: sections, consent, bureau report, documents, conditions', async () => {
    const { leadId, partner } = await verifiedLead(t, 'SMS');
    const conditioned = await setOutcome(t, leadId, bodies.CONDITIONED);
    assert.equal(conditioned.statusCode, 200);
    const form = uploadForm(conditioned.json().conditions[0].id, { fileName: 'recibo-enero.png', data: png() });
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `${api}/leads/${leadId}/documents`,
      payload: form.payload,
      headers: { ...partner.headers, ...form.headers },
    });
    assert.equal(uploaded.statusCode, 201, show(uploaded));
    const res = await access(leadId);
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json();
    assert.deepEqual(Object.keys(body), [
      'leadId',
      'erasedAt',
      'person',
      'contact',
      'address',
      'financial',
      'consent',
      'bureau',
      'documents',
      'conditions',
    ]);
    assert.equal(body.leadId, leadId);
    assert.equal(body.erasedAt, null);
    assert.equal(body.person.lastName, leadDefaults.person.lastName);
    assert.ok(body.person.rfc && body.person.birthDate);
    assert.deepEqual(body.contact, { phone: leadDefaults.phone, email: leadDefaults.email });
    assert.equal(body.address.street, leadDefaults.address.street);
    assert.equal(body.financial.income, leadDefaults.income);
    assert.equal(body.consent.channel, 'SMS');
    assert.equal(body.consent.destination, leadDefaults.phone, 'unmasked');
    assert.ok(body.bureau && typeof body.bureau === 'object' && Object.keys(body.bureau).length > 0);
    assert.deepEqual(body.documents, [uploaded.json()], 'each document’s metadata, its file name included');
    assert.deepEqual(
      body.conditions.map((c: { code: string }) => c.code),
      bodies.CONDITIONED.conditions.map((c) => c.code),
    );
  });

  test('a lead not yet verified has no consent and no report: both null', async () => {
    const leadId = await readyLead(t);
    const res = await access(leadId);
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual([res.json().consent, res.json().bureau, res.json().conditions], [null, null, null]);
    assert.equal(res.json().contact.phone, leadDefaults.phone);
  });

  test('each read is audited; an analyst or officer gets 403, an unknown lead 404, and none is audited', async () => {
    const { leadId } = await verifiedLead(t, 'EMAIL');
    for (const role of ['analyst', 'officer'] as const) {
      const refused = await access(leadId, bearer((await operatorKey(t, role)).key));
      assertError(refused, 403, 4030, 'Forbidden');
    }
    assertError(await access(randomUUID()), 404, 4040, 'Lead not found');
    const admin = await operatorKey(t, 'admin');
    assert.equal((await access(leadId, bearer(admin.key))).statusCode, 200);
    const audit = await t.app.inject({ method: 'GET', url: '/admin/audit?limit=200', headers: t.admin });
    const mine = audit.json().items.filter((r: { leadId: string | null }) => r.leadId === leadId);
    assert.deepEqual(
      mine.map((r: { action: string; operatorId: string }) => [r.action, r.operatorId]),
      [['personal_data_access', admin.id]],
    );
  });

  test('after an erasure the erased data is null and erasedAt says when; the CLI prints the same', async () => {
    const { leadId } = await verifiedLead(t, 'SMS');
    const erased = await t.app.inject({
      method: 'DELETE',
      url: `/admin/leads/${leadId}/personal-data`,
      headers: t.admin,
    });
    assert.equal(erased.statusCode, 204, show(erased));
    const body = (await access(leadId)).json();
    assert.ok(!Number.isNaN(Date.parse(body.erasedAt)));
    assert.deepEqual(
      [body.person, body.contact, body.address, body.financial, body.bureau],
      [null, null, null, null, null],
    );
    assert.equal(body.consent.destination, null);
    const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const run = await runAutofin(url, ['leads', 'personal-data', leadId]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), (await access(leadId)).json());
    } finally {
      await t.app.server.close();
    }
  });
});
