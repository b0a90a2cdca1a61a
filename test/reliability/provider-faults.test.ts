/**
 * Provider faults under concurrent load: SMS (a Twilio double), e-mail (a real SMTP server behind a
 * switch) and the `http` bureau double fail, hang, answer slowly or answer garbage, one at a time
 * and all at once, while leads send and confirm PINs in parallel. Every answer is the contract's
 * 412 / 6XXYYY for the fault (or the circuit's 6XX004 once it opens), no PIN is left pending that
 * was not delivered, no lead moves to a wrong status, and each circuit closes again once its
 * provider recovers. Time limit 3 s (a loaded CI machine must not turn a quick answer into a
 * timeout), circuit opening after 5 failures for 1 s.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildTestApp, show, type TestApp } from '../helper.ts';
import { pinApi, pinFrom, readyLead } from '../lead-fixture.ts';
import { bureauDouble, smtpDouble, twilioDouble, type Mode } from '../provider-doubles.ts';

const timeoutMs = 3000;
const openMs = 1000;
const perPhase = 8;
type Channel = 'SMS' | 'EMAIL';
type Response = Awaited<ReturnType<ReturnType<typeof pinApi>['send']>>;

/** The contract's code for each provider and fault (docs/api.md, docs/bureau-http-contract.md). */
const expectedCode: Record<'sms' | 'email' | 'bureau', Partial<Record<Mode, number>> & { circuit: number }> = {
  sms: { fail: 601003, hang: 601001, garbage: 601003, circuit: 601004 },
  email: { fail: 602002, hang: 602001, garbage: 602003, circuit: 602004 },
  bureau: { fail: 603003, hang: 603001, garbage: 603003, circuit: 603004 },
};

describe('provider faults under concurrent load', () => {
  let t: TestApp;
  let pins: ReturnType<typeof pinApi>;
  let twilio: Awaited<ReturnType<typeof twilioDouble>>;
  let smtp: Awaited<ReturnType<typeof smtpDouble>>;
  let bureau: Awaited<ReturnType<typeof bureauDouble>>;
  let sequence = 0;
  const figures: string[] = [];

  before(async () => {
    [twilio, smtp, bureau] = await Promise.all([twilioDouble(), smtpDouble(), bureauDouble()]);
    t = await buildTestApp({
      env: {
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
        TWILIO_AUTH_TOKEN: 'twilio-token',
        TWILIO_FROM: '+15005550006',
        TWILIO_BASE_URL: twilio.url,
        EMAIL_PROVIDER: 'smtp',
        SMTP_URL: smtp.url,
        BUREAU_PROVIDER: 'http',
        BUREAU_URL: bureau.url,
        PROVIDER_TIMEOUT_MS: String(timeoutMs),
      },
      circuit: { failureThreshold: 5, openMs },
      logLevel: 'warn',
    });
    pins = pinApi(t);
  });
  after(async () => {
    console.log(`provider fault figures: ${figures.join('; ')}`);
    await t?.close();
    await Promise.all([twilio?.close(), smtp?.close(), bureau?.close()]);
  });

  interface TestLead {
    id: string;
    phone: string;
    email: string;
  }

  async function leads(n: number): Promise<TestLead[]> {
    return Promise.all(
      Array.from({ length: n }, async () => {
        const k = ++sequence;
        const phone = `55${String(70_000_000 + k)}`;
        const email = `fault-${k}@example.com`;
        return { id: await readyLead(t, { phone, email }), phone, email };
      }),
    );
  }

  const delivered = (lead: TestLead, channel: Channel) =>
    channel === 'SMS' ? (twilio.delivered.get(`+52${lead.phone}`) ?? []) : (smtp.delivered.get(lead.email) ?? []);

  /** The PIN in the last message delivered to the lead on `channel`. */
  function lastPin(lead: TestLead, channel: Channel): string {
    const messages = delivered(lead, channel);
    assert.ok(messages.length > 0, `nothing was delivered to lead ${lead.id} by ${channel}`);
    const last = messages.at(-1)!;
    return pinFrom(channel === 'SMS' ? last : (last.match(/\b\d{6}\b/g) ?? []).join(' '));
  }

  function codeOf(res: Response): number {
    return res.statusCode === 204 ? 204 : (res.json() as { code: number }).code;
  }

  function tally(label: string, responses: Response[]) {
    const counts = new Map<number, number>();
    for (const r of responses) counts.set(codeOf(r), (counts.get(codeOf(r)) ?? 0) + 1);
    figures.push(`${label}: ${[...counts].map(([c, n]) => `${n}×${c}`).join(' ')}`);
  }

  /** A failed send answered 412 with the fault's code or the open circuit's, and left no PIN behind. */
  async function assertSendFailed(res: Response, lead: TestLead, channel: Channel, codes: number[]) {
    assert.equal(res.statusCode, 412, show(res));
    assert.ok(codes.includes(codeOf(res)), `expected one of ${codes}: ${show(res)}`);
    assert.equal(delivered(lead, channel).length, 0, 'a failed send delivered nothing');
    const confirm = await pins.confirm(lead.id, '123456');
    assert.equal(confirm.statusCode, 400, show(confirm));
    assert.equal(confirm.json().additionalData?.reason, 'NO_PIN_PENDING', show(confirm));
    const read = await pins.read(lead.id);
    assert.equal(read.status, 'IN_PROGRESS');
    assert.equal(read.verification, null);
  }

  /** A successful send answered 204 after the PIN was delivered; the lead is PIN_SENT. */
  async function assertSent(res: Response, lead: TestLead, channel: Channel) {
    assert.equal(res.statusCode, 204, show(res));
    lastPin(lead, channel);
    assert.equal((await pins.read(lead.id)).status, 'PIN_SENT');
  }

  /** Once the provider works again and the open period has passed, sends of every lead succeed. */
  async function recoverSends(label: string, all: TestLead[], channel: Channel, setOk: () => void) {
    setOk();
    await sleep(openMs + 100);
    await assertSent(await pins.send(all[0].id, channel), all[0], channel);
    const rest = await Promise.all(all.slice(1).map((lead) => pins.send(lead.id, channel)));
    for (const [i, res] of rest.entries()) await assertSent(res, all[i + 1], channel);
    figures.push(`${label}: recovered, ${all.length} sends 204`);
  }

  for (const [channel, provider] of [
    ['SMS', 'sms'],
    ['EMAIL', 'email'],
  ] as const) {
    for (const mode of ['fail', 'hang', 'slow', 'garbage'] as const) {
      test(`${channel} provider ${mode}: ${perPhase} concurrent PIN sends`, async () => {
        const double = channel === 'SMS' ? twilio : smtp;
        const batch = await leads(perPhase);
        double.mode = mode;
        const started = Date.now();
        const responses = await Promise.all(batch.map((lead) => pins.send(lead.id, channel)));
        const elapsed = Date.now() - started;
        tally(`${channel} ${mode}`, responses);
        if (mode === 'slow') {
          double.mode = 'ok';
          for (const [i, res] of responses.entries()) await assertSent(res, batch[i], channel);
          return;
        }
        // Eight failures in a row opened the circuit: the next send does not wait for the provider. A
        // refusal of the message (SMTP 550) says nothing of the provider's health and opens nothing.
        const refusal = codeOf(responses[0]) === 602002;
        const whileOpen = await pins.send(batch[0].id, channel);
        assert.equal(codeOf(whileOpen), refusal ? 602002 : expectedCode[provider].circuit, show(whileOpen));
        const codes = [expectedCode[provider][mode]!, expectedCode[provider].circuit];
        for (const [i, res] of responses.entries()) await assertSendFailed(res, batch[i], channel, codes);
        assert.ok(
          responses.some((r) => codeOf(r) === codes[0]),
          'the fault itself was reported before the circuit opened',
        );
        assert.ok(elapsed < timeoutMs * 2 + 3000, `all answered within the time limit (${elapsed} ms)`);
        await recoverSends(`${channel} ${mode}`, batch, channel, () => (double.mode = 'ok'));
      });
    }
  }

  /** Leads whose PIN was sent by SMS, with the PIN each received. */
  async function leadsWithPin(n: number) {
    const batch = await leads(n);
    for (const lead of batch) assert.equal((await pins.send(lead.id, 'SMS')).statusCode, 204);
    return batch.map((lead) => ({ ...lead, pin: lastPin(lead, 'SMS') }));
  }

  async function assertPrequalified(res: Response, lead: TestLead) {
    assert.equal(res.statusCode, 204, show(res));
    const read = await pins.read(lead.id);
    assert.ok(['PREQUALIFIED', 'NOT_PREQUALIFIED', 'VERIFIED'].includes(read.status), read.status);
    assert.notEqual(read.prequalification, null, 'the report was evaluated');
  }

  async function assertVerifiedWithoutReport(res: Response, lead: TestLead, codes: number[]) {
    assert.equal(res.statusCode, 412, show(res));
    assert.ok(codes.includes(codeOf(res)), `expected one of ${codes}: ${show(res)}`);
    const read = await pins.read(lead.id);
    assert.equal(read.status, 'VERIFIED');
    assert.equal(read.prequalification, null);
  }

  for (const mode of ['fail', 'hang', 'slow', 'garbage'] as const) {
    test(`bureau ${mode}: ${perPhase} concurrent PIN confirmations`, async () => {
      const batch = await leadsWithPin(perPhase);
      bureau.mode = mode;
      const responses = await Promise.all(batch.map((lead) => pins.confirm(lead.id, lead.pin)));
      tally(`bureau ${mode}`, responses);
      if (mode === 'slow') {
        bureau.mode = 'ok';
        for (const [i, res] of responses.entries()) await assertPrequalified(res, batch[i]);
        return;
      }
      const whileOpen = await pins.confirm(batch[0].id, batch[0].pin);
      assert.equal(codeOf(whileOpen), expectedCode.bureau.circuit, show(whileOpen));
      const codes = [expectedCode.bureau[mode]!, expectedCode.bureau.circuit];
      for (const [i, res] of responses.entries()) await assertVerifiedWithoutReport(res, batch[i], codes);
      assert.ok(
        responses.some((r) => codeOf(r) === codes[0]),
        'the fault itself was reported before the circuit opened',
      );
      bureau.mode = 'ok';
      await sleep(openMs + 100);
      // The same confirmation, retried, runs the bureau once the circuit has closed.
      await assertPrequalified(await pins.confirm(batch[0].id, batch[0].pin), batch[0]);
      const rest = await Promise.all(batch.slice(1).map((lead) => pins.confirm(lead.id, lead.pin)));
      for (const [i, res] of rest.entries()) await assertPrequalified(res, batch[i + 1]);
      figures.push(`bureau ${mode}: recovered, ${batch.length} confirmations 204`);
    });
  }

  test('all three at once (SMS hangs, SMTP answers garbage, the bureau fails), then all recover', async () => {
    const [bySms, byEmail, toConfirm] = await Promise.all([leads(perPhase), leads(perPhase), leadsWithPin(perPhase)]);
    twilio.mode = 'hang';
    smtp.mode = 'garbage';
    bureau.mode = 'fail';
    const [sms, email, confirmations] = await Promise.all([
      Promise.all(bySms.map((lead) => pins.send(lead.id, 'SMS'))),
      Promise.all(byEmail.map((lead) => pins.send(lead.id, 'EMAIL'))),
      Promise.all(toConfirm.map((lead) => pins.confirm(lead.id, lead.pin))),
    ]);
    tally('mixed SMS hang', sms);
    tally('mixed EMAIL garbage', email);
    tally('mixed bureau fail', confirmations);
    for (const [i, res] of sms.entries()) await assertSendFailed(res, bySms[i], 'SMS', [601001, 601004]);
    for (const [i, res] of email.entries()) await assertSendFailed(res, byEmail[i], 'EMAIL', [602003, 602004]);
    for (const [i, res] of confirmations.entries()) {
      await assertVerifiedWithoutReport(res, toConfirm[i], [603003, 603004]);
    }
    twilio.mode = 'ok';
    smtp.mode = 'ok';
    bureau.mode = 'ok';
    await sleep(openMs + 100);
    await recoverSends('mixed SMS', bySms, 'SMS', () => {});
    await recoverSends('mixed EMAIL', byEmail, 'EMAIL', () => {});
    await assertPrequalified(await pins.confirm(toConfirm[0].id, toConfirm[0].pin), toConfirm[0]);
    const rest = await Promise.all(toConfirm.slice(1).map((lead) => pins.confirm(lead.id, lead.pin)));
    for (const [i, res] of rest.entries()) await assertPrequalified(res, toConfirm[i + 1]);
  });
});
