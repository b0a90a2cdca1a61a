/**
 * Retries on the schedule (clock injected), success after a failing spell, 410 and five failing
 * days disabling an endpoint, and the delivery log showing every attempt.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, createManualClock, show, type TestApp } from '../../test/helper.ts';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.ts';

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

const clock = createManualClock(new Date());
let t: TestApp;
let receiver: Receiver;
const deliver = () => t.container.webhooks.worker.runUntilIdle();

async function subscribe(url: string, partner = t.partner) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${api}/webhooks`,
    headers: partner.headers,
    payload: { url, eventTypes: ['lead.created'] },
  });
  assert.equal(res.statusCode, 201, show(res));
  return res.json().id as string;
}
const createLead = async (partner = t.partner) =>
  assert.equal(
    (await t.app.inject({ method: 'POST', url: `${api}/leads`, headers: partner.headers, payload: {} })).statusCode,
    201,
  );
async function log(endpointId: string, partner = t.partner) {
  const res = await t.app.inject({
    method: 'GET',
    url: `${api}/webhooks/${endpointId}/deliveries`,
    headers: partner.headers,
  });
  assert.equal(res.statusCode, 200, show(res));
  return res.json().items as {
    status: string;
    attempts: { at: string; statusCode: number | null; durationMs: number }[];
    nextAttemptAt: string | null;
    eventId: string;
  }[];
}
async function endpoint(endpointId: string, partner = t.partner) {
  return (await t.app.inject({ method: 'GET', url: `${api}/webhooks/${endpointId}`, headers: partner.headers })).json();
}

function webhookRetriesTests1() {
  test(
    'a receiver answering 500 is retried after 5 s, 5 min ' + 'and 30 min, then succeeds; the log shows every attempt',
    async () => {
      const partner = await t.newPartner();
      const id = await subscribe(receiver.url, partner);
      receiver.answer(500, 500, 500, 200);
      const start = receiver.received.length;
      const createdAt = clock.now().getTime();
      await createLead(partner);
      await deliver();
      assert.equal(receiver.received.length - start, 1, 'tried immediately');
      let [delivery] = await log(id, partner);
      assert.equal(delivery.status, 'pending');
      assert.equal(Date.parse(delivery.nextAttemptAt!), createdAt + 5 * second);

      for (const wait of [5 * second, 5 * minute, 30 * minute]) {
        const tried = receiver.received.length;
        clock.advance(wait - 100);
        await deliver();
        assert.equal(receiver.received.length, tried, `not before ${wait} ms`);
        clock.advance(100);
        await deliver();
        assert.equal(receiver.received.length, tried + 1, `tried again after ${wait} ms`);
      }
      [delivery] = await log(id, partner);
      assert.equal(delivery.status, 'succeeded');
      assert.equal(delivery.nextAttemptAt, null);
      assert.deepEqual(
        delivery.attempts.map((a) => a.statusCode),
        [500, 500, 500, 200],
      );
      assert.deepEqual(
        delivery.attempts.map((a) => Date.parse(a.at) - createdAt),
        [0, 5 * second, 5 * second + 5 * minute, 5 * second + 35 * minute],
      );
      for (const a of delivery.attempts) assert.ok(Number.isInteger(a.durationMs) && a.durationMs >= 0);
      const ids = receiver.received.slice(start).map((r) => r.headers['webhook-id']);
      assert.deepEqual(new Set(ids), new Set([delivery.eventId]), 'the same webhook-id on every retry');
    },
  );

  test('after eight failed attempts the delivery is failed, and a manual retry tries it once more', async () => {
    const partner = await t.newPartner();
    const failing = await startReceiver();
    failing.otherwise(503);
    try {
      const id = await subscribe(failing.url, partner);
      await createLead(partner);
      await deliver();
      for (const wait of [5 * second, 5 * minute, 30 * minute, 2 * hour, 5 * hour, 10 * hour, 10 * hour]) {
        clock.advance(wait);
        await deliver();
      }
      let [delivery] = await log(id, partner);
      assert.equal(failing.received.length, 8);
      assert.equal(delivery.status, 'failed');
      assert.equal(delivery.nextAttemptAt, null);
      assert.equal(delivery.attempts.length, 8);
      clock.advance(24 * hour);
      await deliver();
      assert.equal(failing.received.length, 8, 'a failed delivery is not tried again by itself');

      failing.otherwise(204);
      const deliveryId = (
        await t.app.inject({ method: 'GET', url: `${api}/webhooks/${id}/deliveries`, headers: partner.headers })
      ).json().items[0].id;
      const retried = await t.app.inject({
        method: 'POST',
        url: `${api}/webhooks/${id}/deliveries/${deliveryId}/retry`,
        headers: partner.headers,
      });
      assert.equal(retried.statusCode, 202, show(retried));
      await deliver();
      [delivery] = await log(id, partner);
      assert.equal(delivery.status, 'succeeded');
      assert.equal(delivery.attempts.length, 9);
    } finally {
      await failing.close();
    }
  });
}

function webhookRetriesTests2() {
  test('410 Gone disables the endpoint at once; nothing more is sent to it', async () => {
    const partner = await t.newPartner();
    const gone = await startReceiver();
    gone.otherwise(410);
    try {
      const id = await subscribe(gone.url, partner);
      await createLead(partner);
      await deliver();
      assert.equal((await endpoint(id, partner)).enabled, false);
      const [delivery] = await log(id, partner);
      assert.equal(delivery.status, 'failed');
      assert.equal(delivery.attempts[0].statusCode, 410);
      await createLead(partner);
      clock.advance(hour);
      await deliver();
      assert.equal(gone.received.length, 1);
    } finally {
      await gone.close();
    }
  });

  test('an endpoint failing for five days in a row is disabled; a success in between resets the count', async () => {
    const partner = await t.newPartner();
    const flaky = await startReceiver();
    flaky.otherwise(500);
    try {
      const id = await subscribe(flaky.url, partner);
      for (let day = 0; day < 5; day++) {
        await createLead(partner);
        await deliver();
        assert.equal((await endpoint(id, partner)).enabled, true, `still enabled on day ${day}`);
        clock.advance(24 * hour);
      }
      await createLead(partner);
      await deliver();
      assert.equal((await endpoint(id, partner)).enabled, false, 'disabled after five failing days');
      const enabled = await t.app.inject({
        method: 'PATCH',
        url: `${api}/webhooks/${id}`,
        headers: partner.headers,
        payload: { enabled: true },
      });
      assert.equal(enabled.json().enabled, true);
      clock.advance(24 * hour);
      await createLead(partner);
      await deliver();
      assert.equal((await endpoint(id, partner)).enabled, true, 'enabling again starts a fresh count');
    } finally {
      await flaky.close();
    }
  });
}

describe('webhook retries', () => {
  before(async () => {
    // Tokens that outlive the days this clock moves through.
    t = await buildTestApp({ clock, env: { TOKEN_TTL_SECONDS: String(30 * 86400) } });
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });
  webhookRetriesTests1();
  webhookRetriesTests2();
});
