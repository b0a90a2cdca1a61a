import { test } from 'node:test';
import assert from 'node:assert/strict';
import { smtpDouble, twilioDouble } from '../../test/provider-doubles.ts';
import type { ProviderLogger } from './logger-port.ts';
import type { SmsMessage } from './ports.ts';
import { createProviders, type ProvidersConfig } from './providers.ts';

const base: ProvidersConfig = {
  smsProvider: 'log',
  twilio: { baseUrl: 'https://api.twilio.com' },
  emailProvider: 'log',
  providerTimeoutMs: 2_000,
};

function recorder(): ProviderLogger & { lines: string[] } {
  const lines: string[] = [];
  const write = (obj: object, msg?: string) => {
    lines.push(JSON.stringify({ ...obj, msg }));
  };
  return { lines, info: write, warn: write, error: write };
}

test('the defaults choose the log senders', async () => {
  const sent: SmsMessage[] = [];
  const providers = await createProviders(base, { logger: recorder(), smsSink: (m) => sent.push(m) });
  assert.equal(providers.sms.name, 'log');
  assert.equal(providers.email.name, 'log');
  const result = await providers.outbound.call('sms', (signal) =>
    providers.sms.send({ to: '+525512345678', body: '123456' }, signal),
  );
  assert.equal(result.ok, true);
  assert.equal(sent.length, 1);
  await providers.close();
});

test('a chosen provider without its settings fails at start, naming the variable', async () => {
  const deps = { logger: recorder() };
  await assert.rejects(
    () => createProviders({ ...base, smsProvider: 'twilio' }, deps),
    /SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID/,
  );
  await assert.rejects(
    () => createProviders({ ...base, emailProvider: 'smtp', smtpUrl: 'smtp://127.0.0.1:25' }, deps),
    /EMAIL_FROM/,
  );
});

test('an SMTP URL nodemailer refuses fails at start, not at the first message', async () => {
  const config = { ...base, emailProvider: 'smtp' as const, smtpUrl: 'smtp://ho%st', emailFrom: 'a@autofin.test' };
  await assert.rejects(() => createProviders(config, { logger: recorder() }), /Invalid URL/);
});

test('twilio and smtp are wired to real listeners, and close() releases every pool', async () => {
  const twilio = await twilioDouble();
  const smtp = await smtpDouble();
  const logger = recorder();
  const providers = await createProviders(
    {
      ...base,
      smsProvider: 'twilio',
      twilio: { accountSid: 'AC1', authToken: 'super-secret-token', from: '+15005550006', baseUrl: twilio.url },
      emailProvider: 'smtp',
      smtpUrl: smtp.url,
      emailFrom: 'no-reply@autofin.test',
    },
    { logger },
  );
  try {
    const { sms, email, outbound } = providers;
    assert.deepEqual([sms.name, email.name], ['twilio', 'smtp']);
    assert.equal((await outbound.call('sms', (s) => sms.send({ to: '+525512345678', body: '123456' }, s))).ok, true);
    assert.equal(
      (await outbound.call('email', (s) => email.send({ to: 'a@example.com', subject: 'PIN', text: '123456' }, s))).ok,
      true,
    );
    assert.ok(
      logger.lines.every((line) => !line.includes('super-secret-token')),
      'no credential reaches the log',
    );
  } finally {
    await providers.close();
    await Promise.all([twilio.close(), smtp.close()]);
  }
});
