import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort } from '../../test/processes/index.ts';
import { smtpDouble } from '../../test/provider-doubles.ts';
import { createSmtpEmailSender } from './email-smtp.ts';
import { createOutbound } from './outbound.ts';

const FROM = 'AutoFin <no-reply@autofin.test>';
const message = {
  to: 'persona@example.com',
  subject: 'Codigo de verificacion',
  text: 'Tu código de verificación es 123456.',
};

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

test('a message reaches the SMTP server with its sender, recipient, subject and text', async (t) => {
  const sink = await smtpDouble();
  const sender = await createSmtpEmailSender({ smtpUrl: sink.url, from: FROM });
  t.after(async () => {
    await sender.close();
    await sink.close();
  });

  assert.deepEqual(await sender.send(message, AbortSignal.timeout(2_000)), { ok: true, value: undefined });
  const [delivery] = sink.deliveries;
  assert.equal(delivery.from, 'no-reply@autofin.test');
  assert.deepEqual(delivery.to, [message.to]);
  assert.deepEqual(parse(delivery.raw), { subject: message.subject, text: message.text });
});

test('pooled sends share one SMTP session', async (t) => {
  const sink = await smtpDouble();
  const sender = await createSmtpEmailSender({ smtpUrl: sink.url, from: FROM });
  t.after(async () => {
    await sender.close();
    await sink.close();
  });

  for (let i = 0; i < 5; i++) assert.equal((await sender.send(message, AbortSignal.timeout(2_000))).ok, true);
  assert.equal(sink.deliveries.length, 5);
  assert.equal(sink.sessions(), 1);
});

test('a 550 reply is rejected', async (t) => {
  const sink = await smtpDouble(550);
  const sender = await createSmtpEmailSender({ smtpUrl: sink.url, from: FROM });
  t.after(async () => {
    await sender.close();
    await sink.close();
  });

  assert.deepEqual(await sender.send(message, AbortSignal.timeout(2_000)), {
    ok: false,
    kind: 'rejected',
    detail: 'SMTP 550',
  });
});

test('a recipient refused with 550 is rejected, without the address in the detail', async (t) => {
  const sink = await smtpDouble('fail');
  const sender = await createSmtpEmailSender({ smtpUrl: sink.url, from: FROM });
  t.after(async () => {
    await sender.close();
    await sink.close();
  });

  assert.deepEqual(await sender.send(message, AbortSignal.timeout(2_000)), {
    ok: false,
    kind: 'rejected',
    detail: 'SMTP 550',
  });
});

test('a 451 reply is an error', async (t) => {
  const sink = await smtpDouble(451);
  const sender = await createSmtpEmailSender({ smtpUrl: sink.url, from: FROM });
  t.after(async () => {
    await sender.close();
    await sink.close();
  });

  assert.deepEqual(await sender.send(message, AbortSignal.timeout(2_000)), {
    ok: false,
    kind: 'error',
    detail: 'SMTP 451',
  });
});

test('an SMTP server that is down is a timeout', async (t) => {
  const port = await freePort();
  const sender = await createSmtpEmailSender({ smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM });
  t.after(() => sender.close());
  const outbound = createOutbound({ timeoutMs: 2_000 });

  const started = performance.now();
  const result = await outbound.call('email', (signal) => sender.send(message, signal));
  assert.equal(!result.ok && result.kind, 'timeout');
  assert.ok(performance.now() - started < 1_000, 'a refused connection is reported at once, not at the limit');
});

test('an SMTP server that never greets is a timeout within the limit', async (t) => {
  const silent = await smtpDouble('hang');
  const sender = await createSmtpEmailSender({ smtpUrl: silent.url, from: FROM });
  t.after(async () => {
    await sender.close();
    await silent.close();
  });
  const outbound = createOutbound({ timeoutMs: 200 });

  const started = performance.now();
  const result = await outbound.call('email', (signal) => sender.send(message, signal));
  const elapsed = performance.now() - started;
  assert.equal(!result.ok && result.kind, 'timeout');
  assert.ok(elapsed < 1_000, `answered after ${elapsed.toFixed(0)} ms`);
  t.diagnostic(`silent SMTP answered timeout after ${elapsed.toFixed(0)} ms`);
});

test('the adapter itself gives up when its signal aborts', async (t) => {
  const silent = await smtpDouble('hang');
  const sender = await createSmtpEmailSender({ smtpUrl: silent.url, from: FROM });
  t.after(async () => {
    await sender.close();
    await silent.close();
  });

  const started = performance.now();
  const result = await sender.send(message, AbortSignal.timeout(200));
  assert.equal(!result.ok && result.kind, 'timeout');
  assert.ok(performance.now() - started < 1_000);
});
