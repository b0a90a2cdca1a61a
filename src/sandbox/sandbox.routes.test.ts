/**
 * The sandbox messages API and magic recipients, in the `sandbox` environment with the `log`
 * providers: a partner reads its PINs through the API and confirms them; magic phones and e-mails
 * fail as docs/sandbox.md says, with nothing sent, counted or left pending.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { api, buildTestApp, createManualClock, show, type Partner, type TestApp } from '../../test/helper.ts';
import { assertError, assertNoContent, pinApi, pinFrom, readyLead } from '../../test/lead-fixture.ts';
import { twilioDouble, smtpDouble, twilioEnv } from '../../test/provider-doubles.ts';

const magic = [
  { channel: 'SMS', phone: '5500000001', code: 601001 },
  { channel: 'SMS', phone: '5500000002', code: 601002 },
  { channel: 'SMS', phone: '5500000003', code: 601003 },
  { channel: 'EMAIL', email: 'fail-timeout@sandbox.autofin.invalid', code: 602001 },
  { channel: 'EMAIL', email: 'fail-rejected@sandbox.autofin.invalid', code: 602002 },
  { channel: 'EMAIL', email: 'fail-error@sandbox.autofin.invalid', code: 602003 },
] as const;

interface MessageItem {
  id: string;
  channel: string;
  to: string;
  body: string;
  sentAt: string;
}

let t: TestApp;
let pins: ReturnType<typeof pinApi>;
const clock = createManualClock();

const messagesOf = (leadId: string, partner: Partner = t.partner) =>
  t.app.inject({
    method: 'GET',
    url: `${api}/sandbox/leads/${leadId}/messages`,
    headers: { authorization: partner.headers.authorization },
  });

async function items(leadId: string): Promise<MessageItem[]> {
  const res = await messagesOf(leadId);
  assert.equal(res.statusCode, 200, show(res));
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.equal(res.headers['cache-control'], 'no-store');
  return res.json().items;
}

function sandboxMessageTests1() {
  test('the SMS PIN is read through the API (recipient masked, body as sent) and confirms the lead', async () => {
    const id = await readyLead(t, { phone: '5512345678' });
    assert.deepEqual(await items(id), []);
    assertNoContent(await pins.send(id, 'SMS'));
    const [message, ...rest] = await items(id);
    assert.deepEqual(rest, []);
    assert.equal(message.channel, 'SMS');
    assert.equal(message.to, '***********78');
    assert.equal(message.body, t.outbox.sms.at(-1)!.body, 'the body exactly as the provider got it');
    assert.equal(message.sentAt, clock.now().toISOString());
    assert.match(message.id, /^[0-9a-f-]{36}$/);
    assertNoContent(await pins.confirm(id, pinFrom(message.body)));
    assert.equal((await pins.read(id)).status, 'PREQUALIFIED');
  });

  test('messages are listed newest first, e-mails masked to their first letter and domain', async () => {
    const id = await readyLead(t, { email: 'ana.lopez.prueba@example.com' });
    assertNoContent(await pins.send(id, 'SMS'));
    clock.advance(1_000);
    assertNoContent(await pins.send(id, 'EMAIL'));
    const list = await items(id);
    assert.deepEqual(
      list.map((m) => m.channel),
      ['EMAIL', 'SMS'],
    );
    assert.equal(list[0].to, 'a***@example.com');
    assert.equal(list[0].body, t.outbox.email.at(-1)!.text);
    // The latest PIN is the one pending; the earlier one was replaced.
    assertError(await pins.confirm(id, pinFrom(list[1].body)), 400, 4003, 'Bad Request', 'PIN_MISMATCH');
    assertNoContent(await pins.confirm(id, pinFrom(list[0].body)));
  });

  test("another company's lead and an unknown lead are 404 / 4040; no token is 401", async () => {
    const id = await readyLead(t);
    assertNoContent(await pins.send(id));
    const other = await t.newPartner();
    assertError(await messagesOf(id, other), 404, 4040, 'Lead not found');
    assertError(await messagesOf(randomUUID()), 404, 4040, 'Lead not found');
    const anonymous = await t.app.inject({ method: 'GET', url: `${api}/sandbox/leads/${id}/messages` });
    assertError(anonymous, 401, 4010, 'Unauthorized');
    assert.equal((await items(id)).length, 1, 'the owner still sees its message');
  });

  for (const value of magic) {
    const recipient = 'phone' in value ? value.phone : value.email;
    test(`${recipient} answers 412 / ${value.code} with no message sent or listed and no PIN pending`, async () => {
      const id = await readyLead(t, 'phone' in value ? { phone: value.phone } : { email: value.email });
      const sent = t.outbox.sms.length + t.outbox.email.length;
      assertError(await pins.send(id, value.channel), 412, value.code, 'Third-party message error');
      assert.equal(t.outbox.sms.length + t.outbox.email.length, sent, 'no provider was handed the message');
      assert.deepEqual(await items(id), []);
      assertError(await pins.confirm(id, '123456'), 400, 4003, 'Bad Request', 'NO_PIN_PENDING');
      const lead = await pins.read(id);
      assert.equal(lead.status, 'IN_PROGRESS');
      assert.equal(lead.verification, null);
    });
  }

  test('a magic recipient leaves an earlier PIN valid and does not count toward the 5 sends', async () => {
    const id = await readyLead(t, { phone: '5512345678', email: 'fail-error@sandbox.autofin.invalid' });
    assertNoContent(await pins.send(id, 'SMS'));
    for (let i = 0; i < 6; i++) assertError(await pins.send(id, 'EMAIL'), 412, 602003, 'Third-party message error');
    for (let i = 0; i < 4; i++) assertNoContent(await pins.send(id, 'SMS'));
    assertError(await pins.send(id, 'SMS'), 429, 4290, 'Too Many Requests');
    const list = await items(id);
    assert.equal(list.length, 5);
    assert.ok(list.every((m) => m.channel === 'SMS'));
    assertNoContent(await pins.confirm(id, pinFrom(list[0].body)));
  });

  test('magic e-mails are recognised whatever their case', async () => {
    const id = await readyLead(t, { email: 'Fail-Rejected@Sandbox.Autofin.Invalid' });
    assertError(await pins.send(id, 'EMAIL'), 412, 602002, 'Third-party message error');
  });
}

function sandboxMessageTests2() {
  test(
    'the OpenAPI document describes the route and links ' + 'the sandbox guide, which /docs/sandbox.md serves',
    async () => {
      const doc = (await t.app.inject({ method: 'GET', url: `${api}/openapi.json` })).json();
      const op = doc.paths[`${api}/sandbox/leads/{leadId}/messages`]?.get;
      assert.equal(op?.operationId, 'listSandboxMessages');
      assert.equal(
        op.responses['200'].content['application/json'].schema.$ref,
        '#/components/schemas/SandboxMessageList',
      );
      assert.ok(doc.components.schemas.SandboxMessageList.examples.length > 0);
      assert.match(doc.info.description, /\]\(\/docs\/sandbox\.md\)/);
      const guide = await t.app.inject({ method: 'GET', url: '/docs/sandbox.md' });
      assert.equal(guide.statusCode, 200, show(guide));
      assert.match(String(guide.headers['content-type']), /^text\/markdown/);
      assert.match(guide.body, /5500000001/);
    },
  );
}

describe('sandbox: PIN messages readable through the API, magic recipients', () => {
  before(async () => {
    t = await buildTestApp({ env: { AUTOFIN_ENV: 'sandbox' }, clock });
    pins = pinApi(t);
  });
  after(() => t?.close());
  sandboxMessageTests1();
  sandboxMessageTests2();
});

describe('sandbox with Twilio and SMTP configured', () => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof twilioDouble>>;
  let smtp: Awaited<ReturnType<typeof smtpDouble>>;
  before(async () => {
    twilio = await twilioDouble();
    smtp = await smtpDouble();
    t = await buildTestApp({
      env: {
        AUTOFIN_ENV: 'sandbox',
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
  const messagesOf = async (leadId: string): Promise<MessageItem[]> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${api}/sandbox/leads/${leadId}/messages`,
      headers: { authorization: t.partner.headers.authorization },
    });
    assert.equal(res.statusCode, 200, show(res));
    return res.json().items;
  };

  test('messages handed to Twilio and SMTP are recorded too, with the body the provider got', async () => {
    const pins = pinApi(t);
    const id = await readyLead(t, { phone: '5512345678', email: 'ana.lopez.prueba@example.com' });
    assertNoContent(await pins.send(id, 'SMS'));
    assertNoContent(await pins.send(id, 'EMAIL'));
    const [email, sms] = await messagesOf(id);
    assert.equal(sms.body, twilio.received.at(-1)!.form.get('Body'));
    assert.equal(sms.to, '***********78');
    assert.equal(email.channel, 'EMAIL');
    assert.match(smtp.deliveries.at(-1)!.raw, new RegExp(pinFrom(email.body)));
    assertNoContent(await pins.confirm(id, pinFrom(email.body)));
  });

  for (const value of magic) {
    const recipient = 'phone' in value ? value.phone : value.email;
    test(`${recipient} answers 412 / ${value.code} without reaching Twilio or SMTP`, async () => {
      const pins = pinApi(t);
      const id = await readyLead(t, 'phone' in value ? { phone: value.phone } : { email: value.email });
      const reached = twilio.received.length + smtp.deliveries.length;
      assertError(await pins.send(id, value.channel), 412, value.code, 'Third-party message error');
      assert.equal(twilio.received.length + smtp.deliveries.length, reached);
      assert.deepEqual(await messagesOf(id), []);
      assertError(await pins.confirm(id, '123456'), 400, 4003, 'Bad Request', 'NO_PIN_PENDING');
    });
  }
});
