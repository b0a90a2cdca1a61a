import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { assertError, leadDefaults, readyLead, sandboxRfc } from '../../test/lead-fixture.ts';
import { bearer, confirmingAgent, operatorKey, verifiedLead } from '../../test/lender-fixture.ts';

type Rule = {
  rule: string;
  outcome: string;
  inputs: Record<string, unknown> | null;
  threshold: Record<string, unknown>;
  reason: { code: string } | null;
};

let t: TestApp;
let analyst: { id: string; key: string };

const read = (leadId: string, headers = t.admin) =>
  t.app.inject({ method: 'GET', url: `/admin/leads/${leadId}`, headers });
const auditRows = async (leadId: string) =>
  (
    await t.database.db.query<{ operator_id: string; action: string; request_id: string }>(
      'select operator_id, action, request_id from audit_records where lead_id = $1 order by seq',
      [leadId],
    )
  ).rows;

function lenderReadTests1() {
  test(
    'a lead verified by SMS reads with its personal data, ' + 'consent receipt, bureau summary, explanation and events',
    async () => {
      const { leadId, requestId } = await verifiedLead(t, 'SMS');
      const res = await read(leadId, { ...bearer(analyst.key), 'x-request-id': 'officer-read-1' });
      assert.equal(res.statusCode, 200, show(res));
      assert.equal(res.headers['cache-control'], 'no-store');
      const lead = res.json();
      assert.equal(lead.id, leadId);
      assert.equal(lead.companyId, t.partner.companyId);
      assert.equal(lead.status, 'PREQUALIFIED');
      assert.equal(lead.erasedAt, null);
      assert.deepEqual(lead.contact, { phone: leadDefaults.phone, email: leadDefaults.email });
      assert.equal(lead.person.rfc, sandboxRfc.A1);
      assert.equal(lead.person.lastName, leadDefaults.person.lastName);
      assert.equal(lead.address.street, leadDefaults.address.street);
      assert.equal(lead.financial.income, leadDefaults.income);
      assert.equal(lead.consent.channel, 'SMS');
      assert.equal(lead.consent.destination, '******5678');
      assert.equal(lead.consent.consumerKey, t.partner.consumerKey);
      assert.equal(lead.consent.requestId, requestId);
      assert.equal(lead.consent.clientAddress, '127.0.0.1');
      assert.equal(lead.consent.userAgent, confirmingAgent);
      assert.equal(lead.consent.pinSentAt, lead.verification.pinSentAt);
      assert.equal(lead.consent.confirmedAt, lead.verification.verifiedAt);
      assert.equal(lead.bureau.provider, 'sandbox');
      assert.equal(lead.bureau.noRecord, false);
      assert.ok(lead.bureau.score >= 700, show(res));
      for (const key of ['openAccounts', 'totalBalance', 'pastDueBalance', 'worstDelinquencyDays'])
        assert.equal(typeof lead.bureau[key], 'number', key);
      assert.ok(!('folio' in lead.bureau) && !('accounts' in lead.bureau), 'a summary, not the report');
      assert.match(lead.explanation.rulesVersion, /^sha256:/);
      assert.ok(
        lead.explanation.rules.every((r: Rule) => r.outcome === 'pass' && r.reason === null),
        show(res),
      );
      assert.deepEqual(lead.explanation.rules.find((r: Rule) => r.rule === 'term-offered').inputs, {
        term: leadDefaults.term,
      });
      assert.deepEqual(lead.events.map((e: { type: string }) => e.type).slice(-3), [
        'PIN_CONFIRMED',
        'BUREAU_REPORT_RECEIVED',
        'PREQUALIFICATION_EVALUATED',
      ]);
      assert.deepEqual(await auditRows(leadId), [
        { operator_id: analyst.id, action: 'lead.read', request_id: 'officer-read-1' },
      ]);
    },
  );

  test('a lead verified by e-mail has an e-mail consent receipt, masked', async () => {
    const { leadId, requestId } = await verifiedLead(t, 'EMAIL');
    const res = await read(leadId);
    assert.equal(res.statusCode, 200, show(res));
    const { consent } = res.json();
    assert.deepEqual(
      { ...consent, pinSentAt: undefined, confirmedAt: undefined },
      {
        channel: 'EMAIL',
        destination: 'a***@example.com',
        pinSentAt: undefined,
        confirmedAt: undefined,
        consumerKey: t.partner.consumerKey,
        requestId,
        clientAddress: '127.0.0.1',
        userAgent: confirmingAgent,
      },
    );
    assert.deepEqual(await auditRows(leadId), [
      { operator_id: 'admin-token', action: 'lead.read', request_id: res.headers['x-request-id'] },
    ]);
  });
}

function lenderReadTests2() {
  test(
    'a lead refused by two rules is explained: both rules ' + 'fail with their inputs, thresholds and reasons',
    async () => {
      const { leadId } = await verifiedLead(t, 'SMS', { rfc: sandboxRfc.C1, downPayment: 10_000 });
      const lead = (await read(leadId)).json();
      assert.equal(lead.prequalification.decision, 'NOT_PREQUALIFIED');
      const failed = lead.explanation.rules.filter((r: Rule) => r.outcome === 'fail');
      assert.deepEqual(
        failed.map((r: Rule) => [r.rule, r.reason?.code]),
        [
          ['bureau-score', 'LOW_SCORE'],
          ['down-payment-share', 'LOW_DOWN_PAYMENT'],
        ],
      );
      const [score, down] = failed;
      assert.equal(score.inputs.score, lead.bureau.score);
      assert.ok(score.inputs.score < (score.threshold.minimumScore as number), JSON.stringify(score));
      assert.deepEqual(down.inputs, { price: leadDefaults.price, downPayment: 10_000, recordFound: true });
      assert.equal(typeof down.threshold.minimumDownPaymentShare, 'number');
      assert.deepEqual(
        lead.prequalification.reasons.map((r: { code: string }) => r.code),
        ['LOW_SCORE', 'LOW_DOWN_PAYMENT'],
      );
    },
  );

  test(
    'a lead not verified yet has no consent, bureau or ' + 'explanation; an unknown lead is 404 / 4040 and not audited',
    async () => {
      const leadId = await readyLead(t);
      const lead = (await read(leadId)).json();
      assert.deepEqual([lead.consent, lead.bureau, lead.explanation], [null, null, null]);
      const unknown = randomUUID();
      assertError(await read(unknown), 404, 4040, 'Lead not found');
      assert.deepEqual(await auditRows(unknown), []);
    },
  );

  test('the partner never sees the lender fields', async () => {
    const { leadId } = await verifiedLead(t, 'SMS');
    const res = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: t.partner.headers });
    const lead = res.json();
    for (const key of ['consent', 'bureau', 'explanation', 'companyId', 'events']) assert.ok(!(key in lead), key);
    assert.ok(!('explanation' in lead.prequalification), show(res));
    assert.equal(lead.erasedAt, null);
  });
}

describe('the lender reads leads: detail, consent, bureau summary, explanation, audit', () => {
  before(async () => {
    t = await buildTestApp();
    analyst = await operatorKey(t, 'analyst');
  });
  after(() => t.close());
  lenderReadTests1();
  lenderReadTests2();
});
