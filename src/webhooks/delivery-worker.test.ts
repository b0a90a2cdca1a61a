/**
 * How the delivery worker stops: an attempt in flight finishes within the grace and its outcome is
 * recorded; one that outlasts the grace is aborted and given back untried, due again at once.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.ts';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

let t: TestApp;
describe('the delivery worker stopping', () => {
  before(async () => (t = await buildTestApp()));
  after(() => t.close());

  async function slowReceiver(delayMs: number) {
    const seen: string[] = [];
    const open = new Set<ServerResponse>();
    const server = createServer((req, res) => {
      req.resume();
      seen.push(String(req.headers['webhook-id']));
      open.add(res);
      setTimeout(() => res.writeHead(200).end(), delayMs).unref();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
      seen,
      close: () => {
        server.closeAllConnections();
        return new Promise((r) => server.close(r));
      },
    };
  }

  async function subscribedLead(url: string) {
    const partner = await t.newPartner();
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/webhooks`,
      headers: partner.headers,
      payload: { url, eventTypes: ['lead.created'] },
    });
    assert.equal(res.statusCode, 201, show(res));
    await t.app.inject({ method: 'POST', url: `${api}/leads`, headers: partner.headers, payload: {} });
    return async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `${api}/webhooks/${res.json().id}/deliveries`,
          headers: partner.headers,
        })
      ).json().items[0];
  }

  async function until(condition: () => boolean) {
    const deadline = Date.now() + 10_000;
    while (!condition()) {
      if (Date.now() > deadline) assert.fail('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  test('a stop lets an attempt in flight finish and records its success', async () => {
    const receiver = await slowReceiver(300);
    try {
      const delivery = await subscribedLead(receiver.url);
      const run = t.container.webhooks.worker.runDue();
      await until(() => receiver.seen.length === 1);
      await t.container.webhooks.worker.stop(5000);
      await run;
      const d = await delivery();
      assert.equal(d.status, 'succeeded');
      assert.deepEqual(
        d.attempts.map((a: { statusCode: number }) => a.statusCode),
        [200],
      );
    } finally {
      t.container.webhooks.worker.start();
      await t.container.webhooks.worker.stop(0);
      await receiver.close();
    }
  });

  test('an attempt outlasting the grace is aborted and released untried, then sent after the restart', async () => {
    const slow = await slowReceiver(5000);
    const worker = t.container.webhooks.worker;
    try {
      const delivery = await subscribedLead(slow.url);
      worker.start();
      await until(() => slow.seen.length === 1);
      await worker.stop(100);
      const d = await delivery();
      assert.equal(d.status, 'pending');
      assert.equal(d.attempts.length, 0, 'nothing recorded for an aborted attempt');
      const fast: Receiver = await startReceiver();
      try {
        // The same delivery, claimable at once by the next worker (its lease was released).
        await t.container.db.query('update webhook_endpoints set url = $1 where url = $2', [fast.url, slow.url]);
        worker.start();
        await fast.waitFor(1);
        await worker.stop();
        assert.equal(fast.received[0].headers['webhook-id'], slow.seen[0]);
        assert.equal((await delivery()).status, 'succeeded');
      } finally {
        await fast.close();
      }
    } finally {
      await slow.close();
    }
  });
});
