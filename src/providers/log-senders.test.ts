import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogEmailSender } from './email-log.ts';
import type { ProviderLogger } from './logger-port.ts';
import type { EmailMessage, SmsMessage } from './ports.ts';
import { createLogSmsSender, maskPhone } from './sms-log.ts';

function recorder(): ProviderLogger & { lines: string[] } {
  const lines: string[] = [];
  const write = (obj: object, msg?: string) => {
    lines.push(JSON.stringify({ ...obj, msg }));
  };
  return { lines, info: write, warn: write, error: write };
}

test('the log SMS sender logs a masked phone and the body length, never the phone, body or PIN', async () => {
  const logger = recorder();
  const sent: SmsMessage[] = [];
  const sender = createLogSmsSender(logger, (m) => sent.push(m));
  const message = { to: '+525512345678', body: 'AutoFin: tu código es 482913' };

  assert.deepEqual(await sender.send(message, new AbortController().signal), { ok: true, value: undefined });
  assert.equal(logger.lines.length, 1);
  const line = logger.lines[0];
  for (const secret of ['5512345678', '482913', 'código']) assert.ok(!line.includes(secret), line);
  assert.deepEqual(JSON.parse(line), {
    provider: 'log',
    toMasked: '***********78',
    bodyLength: message.body.length,
    msg: 'sms sent',
  });
  assert.deepEqual(sent, [message], 'the sink gets the whole message, for the sandbox to show');
});

test('the log senders work without a sink and refuse an already aborted signal', async () => {
  const sms = createLogSmsSender(recorder());
  const email = createLogEmailSender(recorder());
  assert.equal((await sms.send({ to: '+525512345678', body: 'x' }, new AbortController().signal)).ok, true);
  assert.deepEqual(await email.send({ to: 'a@b.mx', subject: 's', text: 't' }, AbortSignal.abort()), {
    ok: false,
    kind: 'timeout',
  });
});

test('the log e-mail sender logs lengths only, never the address, subject or text', async () => {
  const logger = recorder();
  const sent: EmailMessage[] = [];
  const sender = createLogEmailSender(logger, (m) => sent.push(m));
  const message = { to: 'persona@example.com', subject: 'Tu código AutoFin', text: 'Tu código es 482913' };

  assert.equal((await sender.send(message, new AbortController().signal)).ok, true);
  const line = logger.lines[0];
  for (const secret of ['persona', 'example.com', '482913', 'AutoFin']) assert.ok(!line.includes(secret), line);
  assert.deepEqual(JSON.parse(line), {
    provider: 'log',
    subjectLength: message.subject.length,
    textLength: message.text.length,
    msg: 'email sent',
  });
  assert.deepEqual(sent, [message]);
});

test('maskPhone keeps only the last two digits, and nothing of a very short value', () => {
  assert.equal(maskPhone('+525512345678'), '***********78');
  assert.equal(maskPhone('1234'), '****');
  assert.equal(maskPhone(''), '');
});
