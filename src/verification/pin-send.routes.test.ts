/**
 * PIN send (POST /leads/{leadId}/pin) through the real adapters and the Twilio and SMTP doubles
 * (test/provider-doubles.ts).
 * Provider failures must answer 412 / 6XXYYY and change nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { buildTestApp, createManualClock, show, type TestApp } from '../../test/helper.ts';
import {
  assertError,
  assertNoContent,
  leadDefaults,
  pinApi,
  pinFrom,
  readyLead,
  sandboxRfc,
} from '../../test/lead-fixture.ts';
import { freePort } from '../../test/processes/index.ts';
import { smtpDouble, twilioCredentials, twilioDouble, twilioEnv } from '../../test/provider-doubles.ts';

const { SID, TOKEN, FROM } = twilioCredentials;
const minute = 60_000;

/** The Twilio double, switched to `mode`, with the PIN of the last SMS that reached it. */
async function fakeTwilio(mode: Parameters<typeof twilioDouble>[0] = 'ok') {
  const twilio = await twilioDouble(mode);
  return Object.assign(twilio, { lastPin: () => pinFrom(twilio.received.at(-1)!.form.get('Body')!) });
}

/** The decoded text of a single-part message (7bit, quoted-printable or base64). */
function textOf(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const encoding = /^Content-Transfer-Encoding: (.*)$/im.exec(head)?.[1]?.trim().toLowerCase();
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return body;
  const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => `%${hex}`);
  return decodeURIComponent(bytes);
}

const providerError = (res: Parameters<typeof assertError>[0], code: number) =>
  assertError(res, 412, code, 'Third-party message error');

let t: TestApp;
let pins: ReturnType<typeof pinApi>;
let twilio: Awaited<ReturnType<typeof fakeTwilio>>;
let smtp: Awaited<ReturnType<typeof smtpDouble>>;
const clock = createManualClock();

/** After a failed send: no PIN pending, and the lead is as it was. */
async function assertNoPinPending(leadId: string, status = 'IN_PROGRESS') {
  assertError(await pins.confirm(leadId, '123456'), 400, 4003, 'Bad Request', 'NO_PIN_PENDING');
  const lead = await pins.read(leadId);
  assert.equal(lead.status, status);
  if (status === 'IN_PROGRESS') assert.equal(lead.verification, null);
}

function pinSendTests1() {
  test(
    'SMS: Twilio gets a form-encoded POST with Basic auth, To in +52 ' +
      'E.164, From, and a Spanish body with only the PIN; 204 and PIN_SENT',
    async () => {
      const id = await readyLead(t);
      const before = twilio.received.length;
      const res = await pins.send(id, 'SMS');
      assertNoContent(res);
      assert.equal(twilio.received.length, before + 1);
      const req = twilio.received.at(-1)!;
      assert.equal(req.method, 'POST');
      assert.equal(req.url, `/2010-04-01/Accounts/${SID}/Messages.json`);
      assert.equal(req.headers['content-type'], 'application/x-www-form-urlencoded');
      assert.equal(req.headers.authorization, `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
      assert.equal(req.form.get('To'), `+52${leadDefaults.phone}`);
      assert.match(req.form.get('To')!, /^\+52[0-9]{10}$/);
      assert.equal(req.form.get('From'), FROM);
      const body = req.form.get('Body')!;
      assert.match(pinFrom(body), /^[0-9]{6}$/);
      assert.match(body, /código de verificación/i);
      assert.doesNotMatch(body, /http/i);
      const lead = await pins.read(id);
      assert.equal(lead.status, 'PIN_SENT');
      assert.equal(lead.verification.channel, 'SMS');
      assert.equal(lead.verification.pinSentAt, clock.now().toISOString());
      assert.equal(lead.verification.verifiedAt, null);
      assertNoContent(await pins.confirm(id, twilio.lastPin()));
    },
  );

  test(
    "EMAIL: the PIN arrives at the lead's e-mail through " + 'SMTP as its only 6-digit number, and confirms',
    async () => {
      const id = await readyLead(t);
      const before = smtp.deliveries.length;
      assertNoContent(await pins.send(id, 'EMAIL'));
      assert.equal(smtp.deliveries.length, before + 1, 'delivered before the 204');
      const delivery = smtp.deliveries.at(-1)!;
      assert.deepEqual(delivery.to, [leadDefaults.email]);
      const text = textOf(delivery.raw);
      assert.match(text, /código de verificación/i);
      assert.doesNotMatch(text, /http/i);
      const pin = pinFrom(text);
      const lead = await pins.read(id);
      assert.equal(lead.status, 'PIN_SENT');
      assert.equal(lead.verification.channel, 'EMAIL');
      assertNoContent(await pins.confirm(id, pin));
      assert.equal((await pins.read(id)).status, 'PREQUALIFIED');
    },
  );

  test('an invalid or missing channel is 400 / 4003 and sends nothing', async () => {
    const id = await readyLead(t);
    const sent = twilio.received.length + smtp.deliveries.length;
    for (const channel of ['WHATSAPP', 'sms', '', 'EMAIL ']) {
      const body = assertError(await pins.send(id, channel), 400, 4003, 'Bad Request');
      assert.ok(
        body.additionalData.errors.some((e: { field: string }) => e.field === 'channel'),
        JSON.stringify(body),
      );
    }
    const res = await t.app.inject({
      method: 'POST',
      url: `/mx/b2b/autofin/api/leads/${id}/pin`,
      headers: t.partner.headers,
      payload: {},
    });
    assertError(res, 400, 4003, 'Bad Request');
    assert.equal(twilio.received.length + smtp.deliveries.length, sent);
    assert.equal((await pins.read(id)).status, 'IN_PROGRESS');
  });

  test(
    'with no phone on file SMS is 400 / 4003 NO_PHONE_ON_FILE, ' + 'with no e-mail EMAIL is NO_EMAIL_ON_FILE',
    async () => {
      const id = await readyLead(t, { contact: false });
      const sent = twilio.received.length + smtp.deliveries.length;
      assertError(await pins.send(id, 'SMS'), 400, 4003, 'Bad Request', 'NO_PHONE_ON_FILE');
      assertError(await pins.send(id, 'EMAIL'), 400, 4003, 'Bad Request', 'NO_EMAIL_ON_FILE');
      assert.equal(twilio.received.length + smtp.deliveries.length, sent);
      const lead = await pins.read(id);
      assert.equal(lead.status, 'IN_PROGRESS');
      assert.equal(lead.verification, null);
    },
  );
}

function pinSendTests2() {
  test("an unknown lead, or another company's, is 404 / 4040 and sends nothing", async () => {
    const sent = twilio.received.length;
    assertError(await pins.send(randomUUID(), 'SMS'), 404, 4040, 'Lead not found');
    const id = await readyLead(t);
    assertError(await pinApi(t, await t.newPartner()).send(id, 'SMS'), 404, 4040, 'Lead not found');
    assert.equal(twilio.received.length, sent);
  });

  test('the 6th send within 10 minutes is 429 / 4290 with Retry-After; 10 minutes later sends work again', async () => {
    const id = await readyLead(t);
    for (let i = 0; i < 5; i++) {
      assertNoContent(await pins.send(id, i % 2 ? 'EMAIL' : 'SMS'));
      clock.advance(1000);
    }
    const sent = twilio.received.length + smtp.deliveries.length;
    const res = await pins.send(id, 'SMS');
    assertError(res, 429, 4290, 'Too Many Requests');
    assert.deepEqual(res.json().additionalData, { reason: 'PIN_SEND_LIMIT' }, show(res));
    const retryAfter = String(res.headers['retry-after']);
    assert.match(retryAfter, /^[1-9][0-9]*$/);
    assert.ok(Number(retryAfter) <= 600, retryAfter);
    assert.equal(twilio.received.length + smtp.deliveries.length, sent, 'the refused send reached no provider');
    const lastPin = twilio.lastPin();

    clock.advance(10 * minute);
    assertNoContent(await pins.send(id, 'SMS'));
    const fresh = twilio.lastPin();
    if (fresh !== lastPin) {
      assertError(await pins.confirm(id, lastPin), 400, 4003, 'Bad Request', 'PIN_MISMATCH');
    }
    assertNoContent(await pins.confirm(id, fresh));
  });

  test('once the lead is verified a send is 409 / 4090 and reaches no provider', async () => {
    const id = await readyLead(t);
    assertNoContent(await pins.send(id, 'SMS'));
    assertNoContent(await pins.confirm(id, twilio.lastPin()));
    const sent = twilio.received.length + smtp.deliveries.length;
    assertError(await pins.send(id, 'SMS'), 409, 4090, 'Lead already verified');
    assertError(await pins.send(id, 'EMAIL'), 409, 4090, 'Lead already verified');
    assert.equal(twilio.received.length + smtp.deliveries.length, sent);
  });

  test('Twilio answering 500 is 412 / 601003 and leaves no PIN pending', async () => {
    const id = await readyLead(t);
    twilio.mode = 500;
    try {
      const body = providerError(await pins.send(id, 'SMS'), 601003);
      assert.equal(JSON.stringify(body).includes(leadDefaults.phone), false);
    } finally {
      twilio.mode = 'ok';
    }
    await assertNoPinPending(id);
  });

  test('Twilio answering 400 is 412 / 601002 and leaves no PIN pending', async () => {
    const id = await readyLead(t);
    twilio.mode = 400;
    try {
      providerError(await pins.send(id, 'SMS'), 601002);
    } finally {
      twilio.mode = 'ok';
    }
    await assertNoPinPending(id);
  });

  test('a PIN sent before a failed resend stays valid', async () => {
    const id = await readyLead(t);
    assertNoContent(await pins.send(id, 'SMS'));
    const first = twilio.lastPin();
    twilio.mode = 500;
    try {
      providerError(await pins.send(id, 'SMS'), 601003);
    } finally {
      twilio.mode = 'ok';
    }
    const lead = await pins.read(id);
    assert.equal(lead.status, 'PIN_SENT');
    assertNoContent(await pins.confirm(id, first));
    assert.equal((await pins.read(id)).status, 'PREQUALIFIED');
  });
}

function pinSendTests3() {
  test('after sends by Twilio and SMTP the logs carry no phone, e-mail, PIN, RFC, name or Twilio secret', async () => {
    const id = await readyLead(t);
    assertNoContent(await pins.send(id, 'SMS'));
    const smsPin = twilio.lastPin();
    assertNoContent(await pins.send(id, 'EMAIL'));
    const emailPin = pinFrom(textOf(smtp.deliveries.at(-1)!.raw));
    assertNoContent(await pins.confirm(id, emailPin));
    const logs = t.logs.join('\n');
    assert.ok(logs.includes(id));
    const secrets = [
      leadDefaults.phone,
      `+52${leadDefaults.phone}`,
      leadDefaults.email,
      sandboxRfc.A1,
      ...Object.values(leadDefaults.person),
      TOKEN,
    ];
    for (const secret of secrets) assert.ok(!logs.includes(secret), `the logs carry ${secret}`);
    for (const p of [smsPin, emailPin]) {
      assert.doesNotMatch(logs, new RegExp(`(?<![0-9A-Za-z.])${p}(?![0-9A-Za-z])`), `the logs carry the PIN ${p}`);
    }
  });
}

describe('PIN send through Twilio and SMTP', () => {
  before(async () => {
    twilio = await fakeTwilio();
    smtp = await smtpDouble();
    t = await buildTestApp({
      clock,
      env: {
        ...twilioEnv(twilio.url),
        EMAIL_PROVIDER: 'smtp',
        SMTP_URL: smtp.url,
        EMAIL_FROM: 'AutoFin <no-reply@autofin.test>',
      },
      // These tests make the provider fail on purpose; none of them is about the circuit breaker.
      circuit: { failureThreshold: 1000 },
    });
    pins = pinApi(t);
  });
  after(async () => {
    await t?.close();
    await twilio?.close();
    await smtp?.close();
  });
  pinSendTests1();
  pinSendTests2();
  pinSendTests3();
});

describe('PIN send when the provider hangs or is down', () => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof fakeTwilio>>;
  before(async () => {
    twilio = await fakeTwilio('hang');
    const port = await freePort();
    t = await buildTestApp({
      env: {
        ...twilioEnv(twilio.url),
        EMAIL_PROVIDER: 'smtp',
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        EMAIL_FROM: 'no-reply@autofin.test',
        PROVIDER_TIMEOUT_MS: '300',
      },
    });
  });
  after(async () => {
    await t?.close();
    await twilio?.close();
  });

  test('a Twilio that never answers is 412 / 601001 within the time limit, leaving no PIN pending', async () => {
    const pins = pinApi(t);
    const id = await readyLead(t);
    const started = performance.now();
    const res = await pins.send(id, 'SMS');
    const elapsed = performance.now() - started;
    providerError(res, 601001);
    assert.ok(elapsed < 2000, `answered after ${elapsed.toFixed(0)} ms`);
    assert.equal(twilio.received.length, 1);
    assertError(await pins.confirm(id, '123456'), 400, 4003, 'Bad Request', 'NO_PIN_PENDING');
    assert.equal((await pins.read(id)).status, 'IN_PROGRESS');
  });

  test('an SMTP server that is down is 412 / 602001, leaving no PIN pending', async () => {
    const pins = pinApi(t);
    const id = await readyLead(t);
    const started = performance.now();
    providerError(await pins.send(id, 'EMAIL'), 602001);
    assert.ok(performance.now() - started < 2000);
    assertError(await pins.confirm(id, '123456'), 400, 4003, 'Bad Request', 'NO_PIN_PENDING');
    const lead = await pins.read(id);
    assert.equal(lead.status, 'IN_PROGRESS');
    assert.equal(lead.verification, null);
  });
});

describe('PIN send when the SMS circuit opens', () => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof fakeTwilio>>;
  before(async () => {
    twilio = await fakeTwilio(500);
    t = await buildTestApp({ env: twilioEnv(twilio.url), circuit: { failureThreshold: 3, openMs: 60_000 } });
  });
  after(async () => {
    await t?.close();
    await twilio?.close();
  });

  test('after 3 Twilio 500s the next send is 412 / 601004 without reaching Twilio', async () => {
    const pins = pinApi(t);
    const id = await readyLead(t);
    for (let i = 0; i < 3; i++) providerError(await pins.send(id, 'SMS'), 601003);
    assert.equal(twilio.received.length, 3);
    providerError(await pins.send(id, 'SMS'), 601004);
    // Calls the open circuit never made are not counted among the 5 sends of the window.
    providerError(await pins.send(id, 'SMS'), 601004);
    providerError(await pins.send(id, 'SMS'), 601004);
    assert.equal(twilio.received.length, 3);
    const other = await readyLead(t, { rfc: sandboxRfc.B1 });
    providerError(await pins.send(other, 'SMS'), 601004);
    assert.equal(twilio.received.length, 3, "the circuit is the provider's, not the lead's");
    assertError(await pins.confirm(id, '123456'), 400, 4003, 'Bad Request', 'NO_PIN_PENDING');
  });
});
