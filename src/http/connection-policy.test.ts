import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { api, buildTestApp, type TestApp } from '../../test/helper.ts';
import { systemClock } from '../shared/index.ts';
import { registerConnectionPolicy } from './connection-policy.ts';
import { registerErrorHandler } from './error-handler.ts';
import { registerUnknownRouteHandler } from './unknown-route.ts';

/**
 * Slow and oversized clients against a listening app with small limits (1 s for a request, 0.5 s
 * for its headers): their connections are closed on time, early answers to large uploads close the
 * connection without reading the body, and other clients are served meanwhile.
 */
const requestTimeoutMs = 1000;
const headersTimeoutMs = 500;
const perMinute = 2;

interface RawExchange {
  /** What the server answered, as bytes read before the connection closed. */
  response: string;
  /** Body bytes the client managed to write before the server closed the connection. */
  bodyBytesSent: number;
  /** From the first byte sent to the connection's close. */
  closedAfterMs: number;
}

function openSocket(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  return new Promise((resolve, reject) => socket.once('connect', () => resolve(socket)).once('error', reject));
}

/** Sends `head`, then `trickle` (one piece every `everyMs`) or body bytes as fast as the server reads them. */
async function exchange(
  port: number,
  head: string,
  body: { flood: true } | { trickle: string; everyMs: number },
  limitMs = 10_000,
): Promise<RawExchange> {
  const socket = await openSocket(port);
  const started = Date.now();
  let response = '';
  let bodyBytesSent = 0;
  let closed = false;
  socket.on('data', (chunk) => (response += chunk));
  socket.on('error', () => {});
  const done = new Promise<void>((resolve) => socket.once('close', () => ((closed = true), resolve())));
  socket.write(head);
  const chunk = Buffer.alloc(64 * 1024, 'a');
  void (async () => {
    while (!closed && Date.now() - started < limitMs) {
      if ('flood' in body) {
        bodyBytesSent += chunk.length;
        if (!socket.write(chunk))
          await new Promise((resolve) => {
            socket.once('drain', resolve);
            socket.once('close', resolve);
          });
      } else {
        await sleep(body.everyMs);
        if (!closed) socket.write(body.trickle);
      }
    }
    if (!closed) socket.destroy(new Error('still open after the test limit'));
  })();
  await done;
  return { response, bodyBytesSent, closedAfterMs: Date.now() - started };
}

function statusLine(response: string): string {
  return response.split('\r\n', 1)[0];
}

function headerOf(response: string, name: string): string | undefined {
  const head = response.split('\r\n\r\n', 1)[0];
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim();
}

function bodyOf(response: string): { code: number; requestId: string; message: string } {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
}

let t: TestApp;
let port: number;
let base: string;
let served: { status: number; ms: number }[] = [];
let stopOthers: () => Promise<void>;

/** Another client asking /health/live every 50 ms while a test runs. */
function otherClient() {
  served = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      const res = await fetch(`${base}/health/live`);
      await res.arrayBuffer();
      served.push({ status: res.status, ms: Date.now() - started });
      await sleep(50);
    }
  })();
  stopOthers = async () => {
    running = false;
    await loop;
  };
}

function assertOthersServed() {
  assert.ok(served.length >= 5, `the other client was served ${served.length} times`);
  assert.deepEqual([...new Set(served.map((s) => s.status))], [200]);
  const slowest = Math.max(...served.map((s) => s.ms));
  assert.ok(slowest < 1000, `the other client waited ${slowest} ms at most`);
}

function slowClientTests1() {
  test(
    '20 slow-loris connections (a header line every 200 ms) ' + 'are closed by the header timeout; others are served',
    async () => {
      otherClient();
      const slow = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          exchange(port, 'GET /health/live HTTP/1.1\r\nHost: x\r\n', { trickle: `X-Slow-${i}: y\r\n`, everyMs: 200 }),
        ),
      );
      await stopOthers();
      for (const s of slow) {
        assert.ok(
          s.closedAfterMs >= headersTimeoutMs - 50 && s.closedAfterMs < headersTimeoutMs + 2000,
          `closed after ${s.closedAfterMs} ms`,
        );
        assert.match(statusLine(s.response), /^(HTTP\/1\.1 408 |$)/, s.response);
      }
      assertOthersServed();
    },
  );

  test(
    '20 slow bodies (a byte every 200 ms) are closed by ' + 'the request timeout with 408; others are served',
    async () => {
      otherClient();
      const head =
        'POST /auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
      const slow = await Promise.all(
        Array.from({ length: 20 }, () => exchange(port, head, { trickle: ' ', everyMs: 200 })),
      );
      await stopOthers();
      for (const s of slow) {
        assert.ok(
          s.closedAfterMs >= requestTimeoutMs - 50 && s.closedAfterMs < requestTimeoutMs + 2000,
          `closed after ${s.closedAfterMs} ms`,
        );
        assert.match(statusLine(s.response), /^HTTP\/1\.1 408 /, s.response);
      }
      assertOthersServed();
    },
  );

  test('an unauthenticated 1 GiB upload gets 401 / 4010 with Connection: close, and the rest is not read', async () => {
    const head =
      `POST ${api}/leads HTTP/1.1\r\nHost: x\r\nContent-Type: ` +
      `application/json\r\nContent-Length: ${2 ** 30}\r\n\r\n`;
    const upload = await exchange(port, head, { flood: true });
    assert.match(statusLine(upload.response), /^HTTP\/1\.1 401 /, upload.response);
    assert.equal(headerOf(upload.response, 'connection'), 'close');
    assert.equal(bodyOf(upload.response).code, 4010);
    assert.ok(upload.bodyBytesSent < 64 * 2 ** 20, `${upload.bodyBytesSent} bytes were sent before the close`);
    assert.ok(upload.closedAfterMs < 3000, `closed after ${upload.closedAfterMs} ms`);
  });

  test('a body announced larger than the limit gets 413 / 4130 with Connection: close, unread', async () => {
    const head =
      `POST /auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: ` +
      `application/json\r\nContent-Length: ${10 * 2 ** 20}\r\n\r\n`;
    const upload = await exchange(port, head, { flood: true });
    assert.match(statusLine(upload.response), /^HTTP\/1\.1 413 /, upload.response);
    assert.equal(headerOf(upload.response, 'connection'), 'close');
    assert.equal(bodyOf(upload.response).code, 4130);
    assert.ok(upload.closedAfterMs < 3000, `closed after ${upload.closedAfterMs} ms`);
  });

  test('a rate-limited partner uploading a large body gets 429 / 4290 with Connection: close, unread', async () => {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 5000) await sleep(left + 50);
    const partner = await t.newPartner();
    for (let i = 0; i < perMinute; i++) await fetch(`${base}${api}/leads`, { headers: partner.headers });
    const head =
      `POST ${api}/leads HTTP/1.1\r\nHost: x\r\nAuthorization: ${partner.headers.authorization}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${2 ** 30}\r\n\r\n`;
    const upload = await exchange(port, head, { flood: true });
    assert.match(statusLine(upload.response), /^HTTP\/1\.1 429 /, upload.response);
    assert.equal(headerOf(upload.response, 'connection'), 'close');
    assert.equal(bodyOf(upload.response).code, 4290);
    assert.ok(upload.bodyBytesSent < 64 * 2 ** 20, `${upload.bodyBytesSent} bytes were sent before the close`);
  });
}

function slowClientTests2() {
  test('an error answered after a complete request keeps the connection open for the next one', async () => {
    const socket = await openSocket(port);
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.write(`GET ${api}/leads HTTP/1.1\r\nHost: x\r\n\r\n`);
    while (!received.includes('"code":4010')) await sleep(10);
    assert.notEqual(headerOf(received, 'connection'), 'close', received);
    received = '';
    socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    while (!received.includes('\r\n\r\n{')) await sleep(10);
    assert.match(statusLine(received), /^HTTP\/1\.1 200 /);
    socket.destroy();
  });
}

describe('slow and oversized clients', () => {
  before(async () => {
    t = await buildTestApp({
      env: {
        REQUEST_TIMEOUT_MS: String(requestTimeoutMs),
        HEADERS_TIMEOUT_MS: String(headersTimeoutMs),
        RATE_LIMIT_PER_MINUTE: String(perMinute),
      },
      logLevel: 'warn',
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
    base = `http://127.0.0.1:${port}`;
  });
  after(() => t.close());
  slowClientTests1();
  slowClientTests2();
});

describe('while the process stops (draining)', () => {
  test(
    'every request is answered 503 / 5030 as an ' + 'ErrorResponse with Connection: close; before, as usual',
    async () => {
      let draining = false;
      const app = Fastify({ genReqId: () => 'req-drain' });
      registerConnectionPolicy(app, { draining: () => draining });
      registerErrorHandler(app, systemClock, registerUnknownRouteHandler(app, systemClock));
      app.get('/thing', async () => ({ ok: true }));
      await app.ready();
      const before = await app.inject({ url: '/thing' });
      assert.equal(before.statusCode, 200);
      assert.notEqual(before.headers.connection, 'close');
      draining = true;
      const during = await app.inject({ url: '/thing' });
      assert.equal(during.statusCode, 503, during.body);
      assert.equal(during.headers.connection, 'close');
      const body = during.json();
      assert.deepEqual(Object.keys(body).sort(), ['additionalData', 'code', 'message', 'requestId', 'timestamp']);
      assert.equal(body.code, 5030);
      assert.equal(body.message, 'Service Unavailable');
      assert.equal(body.requestId, 'req-drain');
      await app.close();
    },
  );
});
