/**
 * Webhook delivery across process deaths: the real service process (`dist/main.js`) on the embedded engine, one
 * DATA_DIR. A change acknowledged just before a SIGKILL is delivered after the restart (how a stop
 * treats attempts in flight is tested in src/webhooks/delivery-worker.test.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { startServiceProcess, type ServiceProcess } from '../processes/index.ts';

const api = '/mx/b2b/autofin/api';
const started: ServiceProcess[] = [];

async function waitFor(what: string, condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function start(dataDir: string): Promise<ServiceProcess> {
  const service = await startServiceProcess(
    {
      DATA_DIR: dataDir,
      AUTOFIN_ENV: 'sandbox',
      ADMIN_TOKEN: 'e2e-admin-token-0123456789abcdef',
      WEBHOOK_TIMEOUT_MS: '1000',
      LOG_LEVEL: 'info',
    },
    { timeoutMs: 115_000 },
  );
  started.push(service);
  return service;
}

/** A receiver whose answers the test releases: each request waits until `mode` lets it through. */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string; answered?: number }[] = [];
  let mode: 'hold' | 'ok' | { delayMs: number } = 'hold';
  const held: ServerResponse[] = [];
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const entry: { headers: IncomingHttpHeaders; body: string; answered?: number } = { headers: req.headers, body };
      received.push(entry);
      const answer = () => {
        entry.answered = 200;
        res.writeHead(200).end();
      };
      if (mode === 'hold') held.push(res);
      else if (mode === 'ok') answer();
      else setTimeout(answer, mode.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    set: (m: typeof mode) => (mode = m),
    close: () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('webhook delivery across process deaths', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'autofin-e2e-webhooks-'));
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let credential: { consumer_key: string; consumer_secret: string };
  let secret: string;
  let endpointId: string;

  const token = async (base: string) => {
    const res = await fetch(`${base}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credential),
    });
    return (await res.json()).access_token as string;
  };
  const call = async (base: string, method: string, path: string, body?: object) => {
    const res = await fetch(`${base}${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${await token(base)}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  };
  const deliveredTo = (leadId: string) =>
    receiver.received.filter((r) => r.answered === 200 && r.body.includes(leadId));

  before(async () => {
    receiver = await startReceiver();
  });
  after(async () => {
    await Promise.all(started.map((service) => service.kill()));
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('SIGKILL right after a change is acknowledged: the event is delivered after the restart', async () => {
    const first = await start(dataDir);
    credential = {
      consumer_key: /consumer_key:\s+(ck_\S+)/.exec(first.stderr())![1],
      consumer_secret: /consumer_secret:\s+(cs_\S+)/.exec(first.stderr())![1],
    };
    const endpoint = await call(first.base, 'POST', '/webhooks', { url: receiver.url, eventTypes: ['lead.created'] });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    ({ secret, id: endpointId } = endpoint.body);
    const created = await call(first.base, 'POST', '/leads', {});
    assert.equal(created.status, 201);
    await first.kill('SIGKILL');
    const leadId = created.body.id as string;
    assert.equal(deliveredTo(leadId).length, 0, 'not delivered before the crash');

    receiver.set('ok');
    const second = await start(dataDir);
    await waitFor('the delivery after the restart', () => deliveredTo(leadId).length > 0);
    const [delivered] = deliveredTo(leadId);
    const event = new Webhook(secret).verify(delivered.body, delivered.headers as Record<string, string>) as {
      type: string;
      data: { leadId: string };
    };
    assert.equal(event.type, 'lead.created');
    assert.equal(event.data.leadId, leadId);
    const log = await call(second.base, 'GET', `/webhooks/${endpointId}/deliveries`);
    assert.equal(log.body.items[0].status, 'succeeded');
    assert.equal(await second.stop(), 0);
  });
});
