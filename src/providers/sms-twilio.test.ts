import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../../test/processes/index.ts';
import { createOutbound } from './outbound.ts';
import { createTwilioSmsSender } from './sms-twilio.ts';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'secret-token';
const message = { to: '+525512345678', body: 'Tu código de verificación es 123456' };

interface Received {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

/** A stand-in for api.twilio.com on 127.0.0.1, answering with `respond`. */
async function fakeTwilio(respond: (res: ServerResponse) => void) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      raw += chunk;
    });
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, form: new URLSearchParams(raw) });
      respond(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, baseUrl, received, close: () => stop(server) };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function json(status: number, body: object) {
  return (res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
}

test('a 201 from Twilio is ok, and Twilio receives the form fields with Basic auth', async (t) => {
  const twilio = await fakeTwilio(json(201, { sid: 'SM1', status: 'queued' }));
  const sender = createTwilioSmsSender({
    accountSid: SID,
    authToken: TOKEN,
    from: '+15005550006',
    baseUrl: `${twilio.baseUrl}/`,
  });
  t.after(async () => {
    await sender.close();
    await twilio.close();
  });

  const result = await sender.send(message, AbortSignal.timeout(2_000));
  assert.deepEqual(result, { ok: true, value: undefined });
  const [req] = twilio.received;
  assert.equal(req.method, 'POST');
  assert.equal(req.url, `/2010-04-01/Accounts/${SID}/Messages.json`);
  assert.equal(req.headers['content-type'], 'application/x-www-form-urlencoded');
  assert.equal(req.headers.authorization, `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
  assert.equal(req.form.get('To'), message.to);
  assert.equal(req.form.get('From'), '+15005550006');
  assert.equal(req.form.get('Body'), message.body);
});

test('a Messaging Service SID is sent as MessagingServiceSid instead of From', async (t) => {
  const twilio = await fakeTwilio(json(201, { sid: 'SM2' }));
  const service = 'MG0123456789abcdef0123456789abcdef';
  const sender = createTwilioSmsSender({ accountSid: SID, authToken: TOKEN, from: service, baseUrl: twilio.baseUrl });
  t.after(async () => {
    await sender.close();
    await twilio.close();
  });

  assert.equal((await sender.send(message, AbortSignal.timeout(2_000))).ok, true);
  assert.equal(twilio.received[0].form.get('MessagingServiceSid'), service);
  assert.equal(twilio.received[0].form.has('From'), false);
});

test('consecutive sends reuse kept-alive connections', async (t) => {
  const twilio = await fakeTwilio(json(201, { sid: 'SM3' }));
  const sockets = new Set<unknown>();
  twilio.server.on('connection', (socket) => sockets.add(socket));
  const sender = createTwilioSmsSender({
    accountSid: SID,
    authToken: TOKEN,
    from: '+15005550006',
    baseUrl: twilio.baseUrl,
  });
  t.after(async () => {
    await sender.close();
    await twilio.close();
  });

  for (let i = 0; i < 6; i++) assert.equal((await sender.send(message, AbortSignal.timeout(2_000))).ok, true);
  // undici may open a second socket while the first is being released; it never opens one per send.
  assert.ok(sockets.size <= 2, `${sockets.size} connections for 6 sends`);
});

test("a 400 from Twilio is rejected, with Twilio's code and no phone in the detail", async (t) => {
  const twilio = await fakeTwilio(
    json(400, { code: 21211, message: `The 'To' number ${message.to} is not valid`, status: 400 }),
  );
  const sender = createTwilioSmsSender({
    accountSid: SID,
    authToken: TOKEN,
    from: '+15005550006',
    baseUrl: twilio.baseUrl,
  });
  t.after(async () => {
    await sender.close();
    await twilio.close();
  });

  const result = await sender.send(message, AbortSignal.timeout(2_000));
  assert.deepEqual(result, { ok: false, kind: 'rejected', detail: 'HTTP 400, Twilio 21211' });
});

test('a 500 from Twilio is an error', async (t) => {
  const twilio = await fakeTwilio(json(500, { message: 'internal' }));
  const sender = createTwilioSmsSender({
    accountSid: SID,
    authToken: TOKEN,
    from: '+15005550006',
    baseUrl: twilio.baseUrl,
  });
  t.after(async () => {
    await sender.close();
    await twilio.close();
  });

  assert.deepEqual(await sender.send(message, AbortSignal.timeout(2_000)), {
    ok: false,
    kind: 'error',
    detail: 'HTTP 500',
  });
});

test('a Twilio that never answers is a timeout within the limit', async (t) => {
  const twilio = await fakeTwilio(() => {
    /* never answers */
  });
  const sender = createTwilioSmsSender({
    accountSid: SID,
    authToken: TOKEN,
    from: '+15005550006',
    baseUrl: twilio.baseUrl,
  });
  t.after(async () => {
    await sender.close();
    await twilio.close();
  });
  const outbound = createOutbound({ timeoutMs: 200 });

  const started = performance.now();
  const result = await outbound.call('sms', (signal) => sender.send(message, signal));
  const elapsed = performance.now() - started;
  assert.equal(!result.ok && result.kind, 'timeout');
  assert.ok(elapsed < 1_000, `answered after ${elapsed.toFixed(0)} ms`);
  t.diagnostic(`hanging Twilio answered timeout after ${elapsed.toFixed(0)} ms`);
});

test('the adapter itself stops at the abort of its signal', async (t) => {
  const twilio = await fakeTwilio(() => {
    /* never answers */
  });
  const sender = createTwilioSmsSender({
    accountSid: SID,
    authToken: TOKEN,
    from: '+15005550006',
    baseUrl: twilio.baseUrl,
  });
  t.after(async () => {
    await sender.close();
    await twilio.close();
  });

  const started = performance.now();
  const result = await sender.send(message, AbortSignal.timeout(200));
  assert.equal(!result.ok && result.kind, 'timeout');
  assert.ok(performance.now() - started < 1_000);
});

test('a closed port is a timeout (unreachable)', async (t) => {
  const port = await freePort();
  const sender = createTwilioSmsSender({
    accountSid: SID,
    authToken: TOKEN,
    from: '+15005550006',
    baseUrl: `http://127.0.0.1:${port}`,
  });
  t.after(() => sender.close());
  const outbound = createOutbound({ timeoutMs: 2_000 });

  const result = await outbound.call('sms', (signal) => sender.send(message, signal));
  assert.deepEqual(result, { ok: false, kind: 'timeout', detail: 'ECONNREFUSED' });
});
