import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { api, buildTestApp, createManualClock, show, type TestApp } from '../../test/helper.ts';
import { assertError, leadDefaults, readyLead, sandboxRfc } from '../../test/lead-fixture.ts';
import type { Queryable } from '../db/index.ts';
import { bearer, operatorKey, verifiedLead } from '../../test/lender-fixture.ts';

/** Every text, JSON and byte value of every table but the shipped catalogs: what a dump would hold. */
async function dump(db: Queryable): Promise<string> {
  const { rows: columns } = await db.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
     where table_schema = current_schema() and table_name not like 'catalog%'
       and data_type in ('text', 'jsonb', 'json', 'bytea', 'character varying')`,
  );
  const parts: string[] = [];
  for (const { table_name, column_name } of columns) {
    const { rows } = await db.query<{ v: string | null }>(`select "${column_name}"::text as v from "${table_name}"`);
    for (const r of rows) if (r.v !== null) parts.push(r.v);
  }
  return parts.join('\n');
}

const person = { phone: '5587654321', email: 'zoe.erasable@example.com' };
const clear = [
  person.phone,
  person.email,
  leadDefaults.person.firstName,
  leadDefaults.person.lastName,
  sandboxRfc.B1,
  leadDefaults.address.street,
];

let t: TestApp;
let admin: { id: string; key: string };

function erasureTests1() {
  test(
    'DELETE …/personal-data erases the sealed sections and the ' +
      'bureau report; a dump then holds none of the person’s data',
    async () => {
      const { leadId } = await verifiedLead(t, 'SMS', { ...person, rfc: sandboxRfc.B1 });
      const sealed = (
        await t.database.db.query<Record<string, string>>(
          'select phone_enc, email_enc, address_enc, financial_enc, person_enc, phone_fp from leads where id = $1',
          [leadId],
        )
      ).rows[0];
      const report = (
        await t.database.db.query<{ report_enc: string }>('select report_enc from bureau_reports where lead_id = $1', [
          leadId,
        ])
      ).rows[0].report_enc;
      const secrets = [...Object.values(sealed), report];
      const before = await dump(t.database.db);
      for (const secret of secrets) assert.ok(before.includes(secret), 'the dump holds the sealed data before erasure');

      const res = await t.app.inject({
        method: 'DELETE',
        url: `/admin/leads/${leadId}/personal-data`,
        headers: { ...bearer(admin.key), 'x-request-id': 'erase-1' },
      });
      assert.equal(res.statusCode, 204, show(res));
      assert.equal(res.body, '');

      const after = await dump(t.database.db);
      for (const secret of [...secrets, ...clear])
        assert.ok(!after.includes(secret), `the dump still holds ${secret.slice(0, 12)}…`);

      const partner = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: t.partner.headers });
      const seen = partner.json();
      assert.deepEqual(
        [seen.contact, seen.address, seen.financial, seen.person],
        [null, null, null, null],
        show(partner),
      );
      assert.ok(!Number.isNaN(Date.parse(seen.erasedAt)), show(partner));
      assert.equal(seen.status, 'PREQUALIFIED');
      assert.equal(seen.prequalification.decision, 'PREQUALIFIED');
      assert.equal(seen.loanInfo.term, leadDefaults.term);
      assert.equal(seen.vehicle.price, leadDefaults.price);

      const lender = (await t.app.inject({ method: 'GET', url: `/admin/leads/${leadId}`, headers: t.admin })).json();
      assert.equal(lender.erasedAt, seen.erasedAt);
      assert.equal(lender.bureau, null);
      assert.ok(
        lender.explanation.rules.length > 0 &&
          lender.explanation.rules.every((r: { inputs: unknown }) => r.inputs === null),
      );
      assert.ok(
        lender.explanation.rules.every((r: { outcome: string }) => r.outcome === 'pass'),
        'the outcomes that decided are kept',
      );
      assert.deepEqual(lender.events.map((e: { type: string }) => e.type).slice(-2), [
        'PREQUALIFICATION_EVALUATED',
        'PERSONAL_DATA_ERASED',
      ]);
      const audit = await t.database.db.query<{ operator_id: string; request_id: string }>(
        "select operator_id, request_id from audit_records where action = 'lead.personal_data_erased' and lead_id = $1",
        [leadId],
      );
      assert.deepEqual(audit.rows, [{ operator_id: admin.id, request_id: 'erase-1' }]);
      assertError(
        await t.app.inject({ method: 'DELETE', url: `/admin/leads/${randomUUID()}/personal-data`, headers: t.admin }),
        404,
        4040,
        'Lead not found',
      );
    },
  );

  test('audit records can be neither deleted nor changed, even in SQL', async () => {
    const before = (await t.database.db.query('select * from audit_records')).rows;
    assert.ok(before.length > 0);
    await t.database.db.query('delete from audit_records');
    await t.database.db.query("update audit_records set operator_id = 'someone-else'");
    assert.deepEqual((await t.database.db.query('select * from audit_records')).rows, before);
  });
}

function erasureTests2() {
  test('personal data sent for an erased lead is 409 / 4097 and kept nowhere; the vehicle may change', async () => {
    const leadId = await readyLead(t, { person: false });
    const erase = await t.app.inject({
      method: 'DELETE',
      url: `/admin/leads/${leadId}/personal-data`,
      headers: bearer(admin.key),
    });
    assert.equal(erase.statusCode, 204, show(erase));
    const keysBefore = await t.database.db.query('select 1 from lead_keys where lead_id = $1', [leadId]);
    assert.equal(keysBefore.rowCount, 0);
    const lead = `${api}/leads/${leadId}`;
    const writes = [
      {
        method: 'PUT' as const,
        url: `${lead}/contact-info`,
        payload: { phone: '5511122233', email: 'new@example.com' },
      },
      { method: 'PUT' as const, url: `${lead}/contact`, payload: { email: 'new@example.com' } },
      { method: 'PUT' as const, url: `${lead}/loan-info`, payload: { phone: '5511122233' } },
      { method: 'PUT' as const, url: `${lead}/address`, payload: leadDefaults.address },
      {
        method: 'PUT' as const,
        url: `${lead}/financial`,
        payload: { ...leadDefaults.employment, jobTitle: 'Analista', income: leadDefaults.income },
      },
      {
        method: 'POST' as const,
        url: `${lead}/person`,
        payload: { ...leadDefaults.person, rfc: sandboxRfc.A1, birthDate: '1985-04-12' },
      },
    ];
    for (const write of writes) {
      const res = await t.app.inject({ ...write, headers: t.partner.headers });
      assertError(res, 409, 4097, 'Personal data erased');
      assert.ok(!Number.isNaN(Date.parse(res.json().additionalData.erasedAt)), show(res));
      // Another company hears of no such lead, erased or not.
      const other = await t.app.inject({ ...write, headers: (await t.newPartner()).headers });
      assertError(other, 404, 4040, 'Lead not found');
    }
    const vehicle = await t.app.inject({
      method: 'PUT',
      url: `${lead}/auto`,
      headers: t.partner.headers,
      payload: { id: 371234, price: 300000 },
    });
    assert.equal(vehicle.statusCode, 204, show(vehicle));
    const seen = (await t.app.inject({ method: 'GET', url: lead, headers: t.partner.headers })).json();
    assert.deepEqual([seen.contact, seen.address, seen.person, seen.financial], [null, null, null, null]);
    const keysAfter = await t.database.db.query('select 1 from lead_keys where lead_id = $1', [leadId]);
    assert.equal(keysAfter.rowCount, 0, 'an erased lead gets no key again');
  });

  test("a refusal keeps its reasons' codes; a message written with the applicant's figures loses them", async () => {
    const { leadId } = await verifiedLead(t, 'SMS', { income: 9_000 });
    // A message as an earlier version wrote it, in the partner's reasons and in the lender's explanation.
    const written =
      'Monthly payments of 7316.92 MXN (this loan 6816.92, reported debts 500.00) would take 81.3% of the income';
    await t.database.db.query(
      `update leads set prequalification = jsonb_set(jsonb_set(prequalification,
         '{reasons,0,message}', to_jsonb($2::text)),
         '{explanation,rules}', (select jsonb_agg(case when r->>'rule' = 'payment-to-income'
           then jsonb_set(r, '{reason,message}', to_jsonb($2::text)) else r end order by n)
           from jsonb_array_elements(prequalification->'explanation'->'rules') with ordinality e(r, n)))
       where id = $1`,
      [leadId, written],
    );
    const read = async () => {
      const partner = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: t.partner.headers });
      const lender = await t.app.inject({ method: 'GET', url: `/admin/leads/${leadId}`, headers: t.admin });
      type Reason = { code: string; message: string };
      const rules = (lender.json() as { explanation: { rules: { rule: string; reason: Reason | null }[] } }).explanation
        .rules;
      return {
        reasons: (partner.json() as { prequalification: { reasons: Reason[] } }).prequalification.reasons,
        rules,
        ruleReason: rules.find((r) => r.rule === 'payment-to-income')!.reason,
      };
    };
    const held = await read();
    assert.deepEqual(held.reasons, [{ code: 'PAYMENT_TO_INCOME', message: written }]);
    assert.deepEqual(held.ruleReason, { code: 'PAYMENT_TO_INCOME', message: written });

    const res = await t.app.inject({ method: 'DELETE', url: `/admin/leads/${leadId}/personal-data`, headers: t.admin });
    assert.equal(res.statusCode, 204, show(res));
    const erased = await read();
    const message = 'The monthly payments would take more than the accepted share of the income.';
    assert.deepEqual(erased.reasons, [{ code: 'PAYMENT_TO_INCOME', message }]);
    assert.deepEqual(erased.ruleReason, { code: 'PAYMENT_TO_INCOME', message });
    assert.deepEqual(
      erased.rules.map((r) => [r.rule, r.reason?.code ?? null]),
      held.rules.map((r) => [r.rule, r.reason?.code ?? null]),
      'every rule keeps its outcome and code',
    );
    const { rows } = await t.database.db.query<{ p: string }>(
      'select prequalification::text as p from leads where id = $1',
      [leadId],
    );
    assert.doesNotMatch(rows[0]!.p, /81\.3|7316/);
  });

  test('audit records cannot be truncated, alone or inside a transaction', async () => {
    const before = (await t.database.db.query('select * from audit_records')).rows;
    assert.ok(before.length > 0);
    await assert.rejects(t.database.db.query('truncate audit_records'), /cannot be truncated/);
    await assert.rejects(
      t.database.db.transaction(async (tx) => tx.query('truncate audit_records cascade')),
      /cannot be truncated/,
    );
    assert.deepEqual((await t.database.db.query('select * from audit_records')).rows, before);
  });
}

describe('erasure of a lead’s personal data', () => {
  before(async () => {
    t = await buildTestApp();
    admin = await operatorKey(t, 'admin');
  });
  after(() => t.close());
  erasureTests1();
  erasureTests2();
});

describe('the retention purge', () => {
  const clock = createManualClock();
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ database: 'own', clock, env: { PII_RETENTION_DAYS: '180' } });
  });
  after(() => t.close());
  const day = 86_400_000;

  test(
    'leads unchanged for PII_RETENTION_DAYS are listed by a ' + 'dry run and erased by the purge; newer leads are kept',
    async () => {
      const old = await readyLead(t, person);
      clock.advance(100 * day);
      // Tokens expire: a partner of today creates the newer lead.
      const recent = await readyLead(t, { partner: await t.newPartner() });
      clock.advance(81 * day);
      const purge = (payload: object) =>
        t.app.inject({ method: 'POST', url: '/admin/leads/purge', headers: t.admin, payload });
      const dry = await purge({ dryRun: true });
      assert.equal(dry.statusCode, 200, show(dry));
      assert.deepEqual(
        { ...(dry.json() as object), cutoff: undefined },
        { dryRun: true, cutoff: undefined, retentionDays: 180, count: 1, leadIds: [old] },
      );
      const read = async (id: string) =>
        (await t.app.inject({ method: 'GET', url: `/admin/leads/${id}`, headers: t.admin })).json();
      assert.equal((await read(old)).contact.phone, person.phone, 'a dry run erases nothing');

      const done = await purge({});
      assert.deepEqual([done.json().dryRun, done.json().leadIds], [false, [old]], show(done));
      const erased = await read(old);
      assert.deepEqual([erased.contact, erased.person, erased.address, erased.financial], [null, null, null, null]);
      assert.equal(erased.status, 'IN_PROGRESS');
      assert.equal((await read(recent)).contact.phone, leadDefaults.phone);
      const dumped = await dump(t.database.db);
      assert.ok(!dumped.includes(person.phone) && !dumped.includes(person.email));

      // The daily job of the service is the same purge: nothing is left to do.
      assert.equal((await t.container.erasure.purge({ dryRun: false })).count, 0);
      clock.advance(100 * day);
      const daily = await t.container.erasure.purge({ dryRun: false });
      assert.deepEqual(daily.leadIds, [recent]);
      const audit = await t.database.db.query<{ operator_id: string; lead_id: string }>(
        "select operator_id, lead_id from audit_records where action = 'lead.personal_data_erased' order by seq",
      );
      assert.deepEqual(audit.rows, [
        { operator_id: 'admin-token', lead_id: old },
        { operator_id: 'retention', lead_id: recent },
      ]);
    },
  );
});
