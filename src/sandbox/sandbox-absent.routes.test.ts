/**
 * Outside the sandbox environment none of docs/sandbox.md exists: no messages route, no guide, and
 * the reserved phones and e-mails are sent like any other (here in an environment named
 * `production`, through a fake Twilio and a real SMTP sink).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { assertError, assertNoContent, pinApi, pinFrom, readyLead } from '../../test/lead-fixture.ts';
import { twilioDouble, smtpDouble, twilioEnv } from '../../test/provider-doubles.ts';

const key = () => randomBytes(32).toString('base64');

describe('production: reserved sandbox values are ordinary recipients', () => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof twilioDouble>>;
  let smtp: Awaited<ReturnType<typeof smtpDouble>>;
  before(async () => {
    twilio = await twilioDouble();
    smtp = await smtpDouble();
    t = await buildTestApp({
      env: {
        AUTOFIN_ENV: 'production',
        TOKEN_SIGNING_KEY: key(),
        DATA_ENCRYPTION_KEY: key(),
        ...twilioEnv(twilio.url),
        EMAIL_PROVIDER: 'smtp',
        SMTP_URL: smtp.url,
        EMAIL_FROM: 'AutoFin <no-reply@autofin.test>',
      },
    });
  });
  after(async () => {
    await t?.close();
    await twilio?.close();
    await smtp?.close();
  });

  test('5500000001 is sent through Twilio like any number, and its PIN confirms', async () => {
    const pins = pinApi(t);
    const id = await readyLead(t, { phone: '5500000001' });
    const before = twilio.received.length;
    assertNoContent(await pins.send(id, 'SMS'));
    assert.equal(twilio.received.length, before + 1);
    const { form } = twilio.received.at(-1)!;
    assert.equal(form.get('To'), '+525500000001');
    assertNoContent(await pins.confirm(id, pinFrom(form.get('Body')!)));
  });

  test('fail-timeout@sandbox.autofin.invalid is delivered through SMTP like any address', async () => {
    const pins = pinApi(t);
    const id = await readyLead(t, { email: 'fail-timeout@sandbox.autofin.invalid' });
    const before = smtp.deliveries.length;
    assertNoContent(await pins.send(id, 'EMAIL'));
    assert.equal(smtp.deliveries.length, before + 1);
    assert.deepEqual(smtp.deliveries.at(-1)!.to, ['fail-timeout@sandbox.autofin.invalid']);
  });

  test('the messages route and the guide do not exist: 404 / 4044', async () => {
    const id = await readyLead(t);
    const res = await t.app.inject({
      method: 'GET',
      url: `${api}/sandbox/leads/${id}/messages`,
      headers: { authorization: t.partner.headers.authorization },
    });
    assertError(res, 404, 4044, 'Not Found');
    assertError(await t.app.inject({ method: 'GET', url: '/docs/sandbox.md' }), 404, 4044, 'Not Found');
    const doc = (await t.app.inject({ method: 'GET', url: `${api}/openapi.json` })).json();
    assert.ok(!JSON.stringify(doc).includes('/sandbox/'), 'the document names no sandbox route');
  });
});

describe('any other environment name: no messages route', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { AUTOFIN_ENV: 'staging' } });
  });
  after(() => t?.close());

  test("GET …/sandbox/leads/{id}/messages is 404 / 4044 even for the lead's own company", async () => {
    const id = await readyLead(t);
    assertNoContent(await pinApi(t).send(id));
    const res = await t.app.inject({
      method: 'GET',
      url: `${api}/sandbox/leads/${id}/messages`,
      headers: { authorization: t.partner.headers.authorization },
    });
    assertError(res, 404, 4044, 'Not Found');
    assert.equal(t.outbox.sms.length, 1, show(res));
  });
});
