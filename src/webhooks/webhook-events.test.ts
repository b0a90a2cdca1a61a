/**
 * Every change of a lead reaches a subscribed receiver as a signed Standard Webhooks request that
 * the `standardwebhooks` package verifies, as a partner's code would; thin payloads, no personal data.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { leadDefaults, pinApi, pinFrom, readyLead } from '../../test/lead-fixture.ts';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.ts';

let t: TestApp;
let receiver: Receiver;
let secret: string;
let endpointId: string;
const deliver = () => t.container.webhooks.worker.runUntilIdle();
const events = () =>
  receiver.received.map(
    (r) => JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> },
  );

function leadEventTests1() {
  test(
    'creation, card, section updates, PIN, verification and ' + 'pre-qualification each arrive, signed and verifiable',
    async () => {
      const leadId = await readyLead(t);
      const pin = pinApi(t);
      assert.equal((await pin.send(leadId)).statusCode, 204);
      const confirmed = await pin.confirm(leadId, pinFrom(t.outbox.sms.at(-1)!));
      assert.equal(confirmed.statusCode, 204, show(confirmed));
      await deliver();

      const verifier = new Webhook(secret);
      for (const r of receiver.received) {
        assert.deepEqual(verifier.verify(r.body, r.headers as Record<string, string>), JSON.parse(r.body));
        assert.match(String(r.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
      }
      const types = events().map((e) => e.type);
      assert.deepEqual(types, [
        'lead.created',
        'lead.card_created',
        'lead.updated',
        'lead.updated',
        'lead.updated',
        'lead.updated',
        'lead.updated',
        'lead.pin_sent',
        'lead.verified',
        'lead.prequalification_decided',
      ]);
      const byType = (type: string) => events().filter((e) => e.type === type);
      assert.deepEqual(
        byType('lead.updated').map((e) => e.data.sections),
        [
          { loanInfo: ['downPayment', 'term', 'purchaseIntention'] },
          { address: ['street', 'number', 'interior', 'zipCode', 'neighborhood'] },
          { vehicle: ['id', 'price'] },
          { financial: ['employmentType', 'startDate', 'jobTitle', 'income'] },
          { person: ['firstName', 'secondName', 'lastName', 'secondLastName', 'rfc', 'birthDate'] },
        ],
      );
      const decided = byType('lead.prequalification_decided')[0];
      const lead = await pin.read(leadId);
      assert.deepEqual(decided.data, {
        companyId: t.partner.companyId,
        leadId,
        externalAutoId: null,
        status: lead.status,
        decision: lead.prequalification.decision,
        reasons: lead.prequalification.reasons.map((r: { code: string }) => r.code),
      });
      assert.deepEqual(byType('lead.verified')[0].data, {
        companyId: t.partner.companyId,
        leadId,
        externalAutoId: null,
        status: 'VERIFIED',
      });
      // No personal data in any payload.
      const everything = receiver.received.map((r) => r.body).join('\n');
      for (const personal of [leadDefaults.phone, leadDefaults.email, leadDefaults.person.lastName, 'SAND850412'])
        assert.ok(!everything.includes(personal), personal);
      // webhook-id is the event id, the same on every retry; each event has its own.
      assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, receiver.received.length);
    },
  );

  test('a re-evaluation after a change sends lead.prequalification_decided again', async () => {
    const leadId = await readyLead(t);
    const pin = pinApi(t);
    await pin.send(leadId);
    await pin.confirm(leadId, pinFrom(t.outbox.sms.at(-1)!));
    await deliver();
    const before = receiver.received.length;
    assert.equal((await pin.put(leadId, 'loan-info', { downPayment: 150_000 })).statusCode, 204);
    await deliver();
    assert.deepEqual(
      events()
        .slice(before)
        .map((e) => e.type),
      ['lead.updated', 'lead.prequalification_decided'],
    );
  });
}

function leadEventTests2() {
  test(
    'after a rotation each delivery carries two signatures, ' + 'and both the new and the old secret verify it',
    async () => {
      const rotated = await t.app.inject({
        method: 'POST',
        url: `${api}/webhooks/${endpointId}/secret/rotate`,
        headers: t.partner.headers,
      });
      assert.equal(rotated.statusCode, 200, show(rotated));
      const fresh = rotated.json().secret as string;
      assert.match(fresh, /^whsec_/);
      assert.notEqual(fresh, secret);
      const start = receiver.received.length;
      const created = await t.app.inject({
        method: 'POST',
        url: `${api}/leads`,
        headers: t.partner.headers,
        payload: {},
      });
      assert.equal(created.statusCode, 201);
      await deliver();
      const r = receiver.received[start];
      assert.equal(String(r.headers['webhook-signature']).split(' ').length, 2);
      for (const key of [fresh, secret])
        assert.equal(
          (new Webhook(key).verify(r.body, r.headers as Record<string, string>) as { type: string }).type,
          'lead.created',
        );
      secret = fresh;
    },
  );

  test('only subscribed event types are sent, and another company’s leads never reach this endpoint', async () => {
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `${api}/webhooks/${endpointId}`,
      headers: t.partner.headers,
      payload: { eventTypes: ['lead.card_created'] },
    });
    assert.equal(patched.statusCode, 200, show(patched));
    assert.deepEqual(patched.json().eventTypes, ['lead.card_created']);
    const other = await t.newPartner();
    await readyLead(t, { partner: other });
    const start = receiver.received.length;
    await readyLead(t);
    await deliver();
    assert.deepEqual(
      events()
        .slice(start)
        .map((e) => [e.type, e.data.companyId]),
      [['lead.card_created', t.partner.companyId]],
    );
  });

  test('the lender’s endpoint hears every company’s events, the payload naming the company', async () => {
    const lender = await startReceiver();
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/admin/webhooks',
        headers: t.admin,
        payload: { url: lender.url, eventTypes: ['lead.created'] },
      });
      assert.equal(res.statusCode, 201, show(res));
      assert.equal(res.headers.location, `/admin/webhooks/${res.json().id}`);
      const other = await t.newPartner();
      for (const p of [t.partner, other])
        await t.app.inject({ method: 'POST', url: `${api}/leads`, headers: p.headers, payload: {} });
      await deliver();
      const companies = lender.received.map(
        (r) =>
          (
            new Webhook(res.json().secret).verify(r.body, r.headers as Record<string, string>) as {
              data: { companyId: string };
            }
          ).data.companyId,
      );
      assert.deepEqual(companies, [t.partner.companyId, other.companyId]);
    } finally {
      await lender.close();
    }
  });
}

function leadEventTests3() {
  test('a test event reaches the endpoint and shows in its delivery log', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/webhooks/${endpointId}/test`,
      headers: t.partner.headers,
    });
    assert.equal(res.statusCode, 202, show(res));
    const start = receiver.received.length;
    await deliver();
    assert.equal(events()[start].type, 'webhook.test');
    const log = await t.app.inject({
      method: 'GET',
      url: `${api}/webhooks/${endpointId}/deliveries?limit=1`,
      headers: t.partner.headers,
    });
    assert.equal(log.statusCode, 200, show(log));
    const [item] = log.json().items;
    assert.equal(item.id, res.json().deliveryId);
    assert.equal(item.eventType, 'webhook.test');
    assert.equal(item.status, 'succeeded');
    assert.equal(item.attempts.length, 1);
    assert.equal(item.attempts[0].statusCode, 200);
    assert.equal(typeof item.attempts[0].durationMs, 'number');
    assert.ok(log.json().nextCursor, 'more deliveries on the next page');
    const next = await t.app.inject({
      method: 'GET',
      url: `${api}/webhooks/${endpointId}/deliveries?limit=100&cursor=${log.json().nextCursor}`,
      headers: t.partner.headers,
    });
    assert.ok(next.json().items.length > 1);
    assert.ok(!next.json().items.some((d: { id: string }) => d.id === item.id));
  });

  test('/metrics counts attempts by outcome, deliveries by status and the age of the oldest due one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: t.admin });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /^autofin_webhook_attempts_total\{outcome="succeeded"\} [1-9]\d*$/m);
    assert.match(res.body, /^autofin_webhook_deliveries\{status="succeeded"\} [1-9]\d*$/m);
    assert.match(res.body, /^autofin_webhook_deliveries\{status="pending"\} 0$/m);
    assert.match(res.body, /^autofin_webhook_oldest_pending_seconds 0$/m);
  });
}

describe('lead events delivered to a partner endpoint', () => {
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    receiver = await startReceiver();
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/webhooks`,
      headers: t.partner.headers,
      payload: { url: receiver.url },
    });
    assert.equal(res.statusCode, 201, show(res));
    ({ secret, id: endpointId } = res.json());
    assert.equal(res.headers.location, `${api}/webhooks/${endpointId}`);
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });
  leadEventTests1();
  leadEventTests2();
  leadEventTests3();
});
