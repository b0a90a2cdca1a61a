import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUrlPolicy, type Resolver } from './url-policy.ts';
import { createWebhookSender } from './webhook-sender.ts';

let server: Server;
let port: number;
let hits: string[];
const resolver: Resolver = async (host) => {
  if (host === 'receiver.test') return [{ address: '127.0.0.1', family: 4 }];
  throw new Error('ENOTFOUND');
};
const sender = createWebhookSender({
  policy: createUrlPolicy({ production: false, resolve: resolver }),
  timeoutMs: 300,
});

describe('the webhook sender', () => {
  before(async () => {
    hits = [];
    server = createServer((req, res) => {
      hits.push(req.url!);
      if (req.url === '/redirect') return res.writeHead(302, { location: '/ok' }).end();
      if (req.url === '/slow') return setTimeout(() => res.writeHead(200).end(), 2000).unref();
      if (req.url === '/huge') {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const write = () => {
          while (res.write(chunk));
        };
        res.on('drain', write);
        write();
        return;
      }
      res.writeHead(200).end('fine');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await sender.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('a hostname is connected to on the address the resolver gave and allowed', async () => {
    const outcome = await sender.send(`http://receiver.test:${port}/ok`, {}, '{}');
    assert.equal(outcome.statusCode, 200);
    assert.equal(outcome.error, null);
  });

  test('a loopback port the policy reserves is never connected to, by address or by hostname', async () => {
    const guarded = createWebhookSender({
      policy: createUrlPolicy({ production: false, resolve: resolver, reservedLoopbackPorts: [port] }),
      timeoutMs: 300,
    });
    try {
      const before = hits.length;
      for (const url of [`http://127.0.0.1:${port}/ok`, `http://receiver.test:${port}/ok`]) {
        const outcome = await guarded.send(url, {}, '{}');
        assert.equal(outcome.statusCode, null, url);
        assert.match(outcome.error ?? '', /port of this service or of a server it uses/, url);
      }
      assert.equal(hits.length, before, 'the receiver was never reached');
    } finally {
      await guarded.close();
    }
  });

  test('a redirect is not followed: the 3xx is the outcome', async () => {
    const outcome = await sender.send(`http://127.0.0.1:${port}/redirect`, {}, '{}');
    assert.equal(outcome.statusCode, 302);
    assert.deepEqual(hits.filter((h) => h === '/ok').length, 1, 'only the first test reached /ok');
  });

  test('an endless answer is cut after a few KiB; a slow one after the time limit', async () => {
    const huge = await sender.send(`http://127.0.0.1:${port}/huge`, {}, '{}');
    assert.equal(huge.statusCode, 200);
    const slow = await sender.send(`http://127.0.0.1:${port}/slow`, {}, '{}');
    assert.equal(slow.statusCode, null);
    assert.match(slow.error!, /timed out after 300 ms/);
    assert.ok(slow.durationMs >= 250 && slow.durationMs < 1500, String(slow.durationMs));
  });

  test('a production sender refuses a hostname resolving to loopback before connecting', async () => {
    const strict = createWebhookSender({
      policy: createUrlPolicy({ production: true, resolve: resolver }),
      timeoutMs: 300,
    });
    try {
      const before = hits.length;
      const outcome = await strict.send(`https://receiver.test:${port}/ok`, {}, '{}');
      assert.equal(outcome.statusCode, null);
      assert.match(outcome.error!, /refused.*loopback/);
      assert.equal(hits.length, before);
    } finally {
      await strict.close();
    }
  });
});
