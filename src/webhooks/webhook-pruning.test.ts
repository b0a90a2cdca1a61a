/**
 * The webhook tables are pruned (docs/operations.md, "Webhooks"): finished deliveries older than
 * WEBHOOK_RETENTION_DAYS leave the endpoint's delivery log, pending ones stay whatever their age, and
 * events go once no delivery needs them. Its own database: the pruning reaches every company's rows.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, createManualClock, show, type TestApp } from '../../test/helper.ts';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.ts';

const day = 86_400_000;
const clock = createManualClock(new Date('2026-03-01T12:00:00Z'));
let t: TestApp;
let receiver: Receiver;

async function subscribe(url: string, eventType: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${api}/webhooks`,
    headers: t.partner.headers,
    payload: { url, eventTypes: [eventType] },
  });
  assert.equal(res.statusCode, 201, show(res));
  return res.json().id as string;
}

async function createLead(): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: `${api}/leads`, headers: t.partner.headers, payload: {} });
  assert.equal(res.statusCode, 201, show(res));
  return res.json().id as string;
}

async function deliveryLog(endpointId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `${api}/webhooks/${endpointId}/deliveries`,
    headers: t.partner.headers,
  });
  assert.equal(res.statusCode, 200, show(res));
  return (res.json().items as { status: string; eventId: string }[]).map((d) => d.status).sort();
}

const count = async (table: string) =>
  Number((await t.database.db.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n);

describe('pruning of the webhook tables', () => {
  before(async () => {
    receiver = await startReceiver();
    t = await buildTestApp({
      clock,
      database: 'own',
      env: { WEBHOOK_RETENTION_DAYS: '10', TOKEN_TTL_SECONDS: String(30 * 86400) },
    });
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  test('finished deliveries past the retention leave the log; pending ones and recent ones stay', async () => {
    const delivered = await subscribe(receiver.url, 'lead.created');
    const leadId = await createLead();
    await t.container.webhooks.worker.runUntilIdle();
    assert.deepEqual(await deliveryLog(delivered), ['succeeded']);
    // An endpoint that fails: its delivery stays pending (retried for a day and a half; the clock stays).
    const failing = await subscribe(`${receiver.url}/failing`, 'lead.updated');
    receiver.otherwise(500);
    const saved = await t.app.inject({
      method: 'PUT',
      url: `${api}/leads/${leadId}/loan-info`,
      headers: t.partner.headers,
      payload: { downPayment: 50_000, term: 48, purchaseIntention: 'WITHIN_A_MONTH' },
    });
    assert.equal(saved.statusCode, 204, show(saved));
    await t.container.webhooks.worker.runUntilIdle();
    assert.deepEqual(await deliveryLog(failing), ['pending']);

    clock.advance(9 * day);
    assert.deepEqual(await t.container.webhooks.prune(), { deliveries: 0, events: 0 }, 'inside the retention');
    clock.advance(2 * day);
    await createLead(); // a recent event, its delivery not yet attempted
    const eventsBefore = await count('webhook_events');
    const pruned = await t.container.webhooks.prune();
    assert.deepEqual(pruned, { deliveries: 1, events: 1 }, 'the old succeeded delivery, then its event');
    assert.equal(await count('webhook_events'), eventsBefore - 1);
    assert.deepEqual(await deliveryLog(delivered), ['pending'], 'the recent delivery stays');
    assert.deepEqual(await deliveryLog(failing), ['pending'], 'a pending delivery stays whatever its age');
    const orphans = await t.database.db.query(
      'select 1 from webhook_deliveries d left join webhook_events v on v.id = d.event_id where v.id is null',
    );
    assert.equal(orphans.rowCount, 0, 'every delivery left has its event');
    assert.deepEqual(await t.container.webhooks.prune(), { deliveries: 0, events: 0 }, 'a second run finds nothing');
  });
});
