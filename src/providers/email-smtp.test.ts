import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { createSmtpEmailSender } from './email-smtp.ts';
import { createOutbound } from './outbound.ts';

const FROM = 'AutoFin <no-reply@autofin.test>';
const message = { to: 'persona@example.com', subject: 'Codigo de verificacion', text: 'Tu código de verificación es 123456.' };

interface Delivery { from: string; to: string[]; raw: string }

/** An SMTP sink on 127.0.0.1; `reject` answers DATA with an SMTP reply code instead of 250. */
async function smtpSink(options: { reject?: number; rcpt?: SMTPServerOptions['onRcptTo'] } = {}) {
  const deliveries: Delivery[] = [];
  let sessions = 0;
  const server = new SMTPServer({
    authOptional: true,
    // The sink's self-signed certificate would fail verification; production servers have real ones.
    disabledCommands: ['STARTTLS'],
    closeTimeout: 500,
    logger: false,
    onConnect(_session, cb) { sessions++; cb(); },
    onRcptTo: options.rcpt,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (options.reject) return cb(Object.assign(new Error('refused by test'), { responseCode: options.reject }));
        const envelope = session.envelope;
        deliveries.push({
          from: envelope.mailFrom ? envelope.mailFrom.address : '',
          to: envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    deliveries,
    sessions: () => sessions,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The decoded text body and the Subject header of a single-part message. */
function parse(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const subject = /^Subject: (.*)$/m.exec(head)?.[1] ?? '';
  const encoding = /^Content-Transfer-Encoding: (.*)$/im.exec(head)?.[1]?.trim().toLowerCase();
  if (encoding === 'base64') return { subject, text: Buffer.from(body, 'base64').toString('utf8') };
  if (encoding !== 'quoted-printable') return { subject, text: body.trimEnd() };
  const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => `%${hex}`);
  return { subject, text: decodeURIComponent(bytes).trimEnd() };
}

/** A TCP listener that accepts and then says nothing: an SMTP server that hangs before its greeting. */
async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: TcpServer = createTcpServer((socket) => { sockets.add(socket); socket.on('error', () => {}); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('a message reaches the SMTP server with its sender, recipient, subject and text', async (t) => {
  const sink = await smtpSink();
  const sender = createSmtpEmailSender({ smtpUrl: sink.url, from: FROM });
  t.after(async () => { await sender.close(); await sink.close(); });

  assert.deepEqual(await sender.send(message, AbortSignal.timeout(2_000)), { ok: true, value: undefined });
  const [delivery] = sink.deliveries;
  assert.equal(delivery.from, 'no-reply@autofin.test');
  assert.deepEqual(delivery.to, [message.to]);
  assert.deepEqual(parse(delivery.raw), { subject: message.subject, text: message.text });
});

test('pooled sends share one SMTP session', async (t) => {
  const sink = await smtpSink();
  const sender = createSmtpEmailSender({ smtpUrl: sink.url, from: FROM });
  t.after(async () => { await sender.close(); await sink.close(); });

  for (let i = 0; i < 5; i++) assert.equal((await sender.send(message, AbortSignal.timeout(2_000))).ok, true);
  assert.equal(sink.deliveries.length, 5);
  assert.equal(sink.sessions(), 1);
});

test('a 550 reply is rejected', async (t) => {
  const sink = await smtpSink({ reject: 550 });
  const sender = createSmtpEmailSender({ smtpUrl: sink.url, from: FROM });
  t.after(async () => { await sender.close(); await sink.close(); });

  assert.deepEqual(await sender.send(message, AbortSignal.timeout(2_000)), { ok: false, kind: 'rejected', detail: 'SMTP 550' });
});

test('a recipient refused with 550 is rejected, without the address in the detail', async (t) => {
  const sink = await smtpSink({
    rcpt: (address, _session, cb) => cb(Object.assign(new Error(`<${address.address}> unknown`), { responseCode: 550 })),
  });
  const sender = createSmtpEmailSender({ smtpUrl: sink.url, from: FROM });
  t.after(async () => { await sender.close(); await sink.close(); });

  assert.deepEqual(await sender.send(message, AbortSignal.timeout(2_000)), { ok: false, kind: 'rejected', detail: 'SMTP 550' });
});

test('a 451 reply is an error', async (t) => {
  const sink = await smtpSink({ reject: 451 });
  const sender = createSmtpEmailSender({ smtpUrl: sink.url, from: FROM });
  t.after(async () => { await sender.close(); await sink.close(); });

  assert.deepEqual(await sender.send(message, AbortSignal.timeout(2_000)), { ok: false, kind: 'error', detail: 'SMTP 451' });
});

test('an SMTP server that is down is a timeout', async (t) => {
  const port = await closedPort();
  const sender = createSmtpEmailSender({ smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM });
  t.after(() => sender.close());
  const outbound = createOutbound({ timeoutMs: 2_000 });

  const started = performance.now();
  const result = await outbound.call('email', (signal) => sender.send(message, signal));
  assert.equal(!result.ok && result.kind, 'timeout');
  assert.ok(performance.now() - started < 1_000, 'a refused connection is reported at once, not at the limit');
});

test('an SMTP server that never greets is a timeout within the limit', async (t) => {
  const silent = await silentServer();
  const sender = createSmtpEmailSender({ smtpUrl: silent.url, from: FROM });
  t.after(async () => { await sender.close(); await silent.close(); });
  const outbound = createOutbound({ timeoutMs: 200 });

  const started = performance.now();
  const result = await outbound.call('email', (signal) => sender.send(message, signal));
  const elapsed = performance.now() - started;
  assert.equal(!result.ok && result.kind, 'timeout');
  assert.ok(elapsed < 1_000, `answered after ${elapsed.toFixed(0)} ms`);
  t.diagnostic(`silent SMTP answered timeout after ${elapsed.toFixed(0)} ms`);
});

test('the adapter itself gives up when its signal aborts', async (t) => {
  const silent = await silentServer();
  const sender = createSmtpEmailSender({ smtpUrl: silent.url, from: FROM });
  t.after(async () => { await sender.close(); await silent.close(); });

  const started = performance.now();
  const result = await sender.send(message, AbortSignal.timeout(200));
  assert.equal(!result.ok && result.kind, 'timeout');
  assert.ok(performance.now() - started < 1_000);
});
