/**
 * Attempts to one endpoint run in parallel, bounded by WEBHOOK_CONCURRENCY_PER_ENDPOINT: with ten
 * leads' events due and a receiver that holds every request open, exactly that many are in flight at
 * once, and the rest go as those are answered.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';

const perEndpoint = 3;
const leads = 10;
let t: TestApp;
describe('the per-endpoint bound on deliveries', () => {
  before(async () => (t = await buildTestApp({ env: { WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(perEndpoint) } })));
  after(() => t.close());

  /** Holds every request until `release`; counts the most open at once. */
  async function holdingReceiver() {
    const open = new Set<ServerResponse>();
    let received = 0;
    let mostOpen = 0;
    const server = createServer((req, res) => {
      req.resume();
      received += 1;
      open.add(res);
      mostOpen = Math.max(mostOpen, open.size);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
      received: () => received,
      open: () => open.size,
      mostOpen: () => mostOpen,
      release() {
        for (const res of open) res.writeHead(204).end();
        open.clear();
      },
      close: () => {
        server.closeAllConnections();
        return new Promise((r) => server.close(r));
      },
    };
  }

  async function until(condition: () => boolean) {
    const deadline = Date.now() + 10_000;
    while (!condition()) {
      if (Date.now() > deadline) assert.fail('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  test(`attempts to one endpoint run ${perEndpoint} at a time, the next ones as those are answered`, async () => {
    const receiver = await holdingReceiver();
    const worker = t.container.webhooks.worker;
    try {
      const partner = await t.newPartner();
      const subscribed = await t.app.inject({
        method: 'POST',
        url: `${api}/webhooks`,
        headers: partner.headers,
        payload: { url: receiver.url, eventTypes: ['lead.created'] },
      });
      assert.equal(subscribed.statusCode, 201, show(subscribed));
      for (let i = 0; i < leads; i++) {
        const created = await t.app.inject({
          method: 'POST',
          url: `${api}/leads`,
          headers: partner.headers,
          payload: {},
        });
        assert.equal(created.statusCode, 201, show(created));
      }
      worker.start();
      await until(() => receiver.open() === perEndpoint);
      // Room for more in the process (WEBHOOK_CONCURRENCY 32) and more due: the endpoint's bound holds them.
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(receiver.received(), perEndpoint, 'no more sent while the first ones are open');
      while (receiver.received() < leads) {
        receiver.release();
        await until(() => receiver.open() > 0 || receiver.received() === leads);
      }
      receiver.release();
      assert.equal(receiver.mostOpen(), perEndpoint);
      // A stop waits for the attempts in flight to be recorded.
      await worker.stop();
      const deliveries = await t.app.inject({
        method: 'GET',
        url: `${api}/webhooks/${subscribed.json().id}/deliveries`,
        headers: partner.headers,
      });
      assert.equal(deliveries.statusCode, 200, show(deliveries));
      assert.deepEqual(
        deliveries.json().items.map((d: { status: string }) => d.status),
        Array(leads).fill('succeeded'),
      );
    } finally {
      await worker.stop(0);
      await receiver.close();
    }
  });
});
