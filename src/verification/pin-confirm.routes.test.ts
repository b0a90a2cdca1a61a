/**
 * PIN confirmation (POST /leads/{leadId}/pin/confirmation) with the log providers: PINs are read from
 * the test outbox. The clock is injected so expiry can be reached without waiting.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp, createManualClock, type TestApp } from '../../test/helper.ts';
import {
  assertError,
  assertNoContent,
  leadDefaults,
  pinApi,
  pinFrom,
  readyLead,
  sandboxBirthDate,
  sandboxRfc,
  savePerson,
} from '../../test/lead-fixture.ts';

const minute = 60_000;
const badRequest = (res: Parameters<typeof assertError>[0], reason: string) =>
  assertError(res, 400, 4003, 'Bad Request', reason);

/** A PIN other than `pin`. */
const otherThan = (pin: string) => String((Number(pin) + 1) % 1_000_000).padStart(6, '0');

let t: TestApp;
let pins: ReturnType<typeof pinApi>;
const clock = createManualClock();

/** Sends a PIN by SMS and returns it, read from the outbox. */
async function sendSms(leadId: string): Promise<string> {
  const before = t.outbox.sms.length;
  assertNoContent(await pins.send(leadId, 'SMS'));
  assert.equal(t.outbox.sms.length, before + 1);
  return pinFrom(t.outbox.sms.at(-1)!);
}

async function assertPendingUnverified(leadId: string) {
  const lead = await pins.read(leadId);
  assert.equal(lead.status, 'PIN_SENT');
  assert.equal(lead.verification.verifiedAt, null);
  assert.equal(lead.prequalification, null);
}

function pinConfirmationTests1() {
  test('a wrong PIN is 400 / 4003 PIN_MISMATCH and the lead stays PIN_SENT', async () => {
    const id = await readyLead(t);
    const pin = await sendSms(id);
    badRequest(await pins.confirm(id, otherThan(pin)), 'PIN_MISMATCH');
    await assertPendingUnverified(id);
  });

  test('the right PIN past its 10 minutes is PIN_EXPIRED; just before, it still works', async () => {
    const expired = await readyLead(t);
    const pin = await sendSms(expired);
    clock.advance(10 * minute + 1000);
    badRequest(await pins.confirm(expired, pin), 'PIN_EXPIRED');
    await assertPendingUnverified(expired);

    const inTime = await readyLead(t);
    const fresh = await sendSms(inTime);
    clock.advance(10 * minute - 1000);
    assertNoContent(await pins.confirm(inTime, fresh));
  });

  test(
    'after 5 wrong PINs the PIN is void and even the right ' + 'one is refused with PIN_VOID; a new send starts over',
    async () => {
      const id = await readyLead(t);
      const pin = await sendSms(id);
      for (let i = 0; i < 5; i++) badRequest(await pins.confirm(id, otherThan(pin)), 'PIN_MISMATCH');
      badRequest(await pins.confirm(id, pin), 'PIN_VOID');
      badRequest(await pins.confirm(id, otherThan(pin)), 'PIN_VOID');
      await assertPendingUnverified(id);

      const next = await sendSms(id);
      assertNoContent(await pins.confirm(id, next));
      assert.equal((await pins.read(id)).status, 'PREQUALIFIED');
    },
  );

  test('a lead that never got a PIN answers NO_PIN_PENDING', async () => {
    const id = await readyLead(t);
    badRequest(await pins.confirm(id, '123456'), 'NO_PIN_PENDING');
    const lead = await pins.read(id);
    assert.equal(lead.status, 'IN_PROGRESS');
    assert.equal(lead.verification, null);
  });

  test('a pinConfirmation that differs from pin is PIN_CONFIRMATION_MISMATCH and costs no try', async () => {
    const id = await readyLead(t);
    const pin = await sendSms(id);
    for (let i = 0; i < 6; i++) {
      const body = badRequest(await pins.confirm(id, pin, otherThan(pin)), 'PIN_CONFIRMATION_MISMATCH');
      assert.deepEqual(
        body.additionalData.errors.map((e: { field: string }) => e.field),
        ['pinConfirmation'],
      );
    }
    await assertPendingUnverified(id);
    assertNoContent(await pins.confirm(id, pin, pin));
    assert.equal((await pins.read(id)).status, 'PREQUALIFIED');
  });

  test(
    'without person or address the confirmation is ' +
      'PERSON_AND_ADDRESS_REQUIRED, and the PIN stays good until they are saved',
    async () => {
      const id = await readyLead(t, { person: false });
      const pin = await sendSms(id);
      for (let i = 0; i < 6; i++) badRequest(await pins.confirm(id, pin), 'PERSON_AND_ADDRESS_REQUIRED');
      await assertPendingUnverified(id);
      await savePerson(t, id);
      assertNoContent(await pins.confirm(id, pin));
      assert.equal((await pins.read(id)).status, 'PREQUALIFIED');

      const noAddress = await readyLead(t, { address: false });
      const other = await sendSms(noAddress);
      badRequest(await pins.confirm(noAddress, other), 'PERSON_AND_ADDRESS_REQUIRED');
      await assertPendingUnverified(noAddress);
    },
  );
}

function pinConfirmationTests2() {
  test('a malformed or missing PIN is 400 / 4003 and changes nothing', async () => {
    const id = await readyLead(t);
    const pin = await sendSms(id);
    const malformed: object[] = [
      { pin: '12ab' },
      { pin: '12345' },
      { pin: '1234567' },
      { pin: 123456 },
      {},
      { pin, extra: 1 },
    ];
    for (const payload of malformed) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/mx/b2b/autofin/api/leads/${id}/pin/confirmation`,
        headers: t.partner.headers,
        payload,
      });
      assertError(res, 400, 4003, 'Bad Request');
    }
    await assertPendingUnverified(id);
    assertNoContent(await pins.confirm(id, pin));
  });

  test('a new send replaces the PIN: the old one is PIN_MISMATCH, the new one confirms', async () => {
    const id = await readyLead(t);
    const first = await sendSms(id);
    let second = await sendSms(id);
    // One chance in a million that the two PINs are equal: then the test sends once more.
    while (second === first) second = await sendSms(id);
    badRequest(await pins.confirm(id, first), 'PIN_MISMATCH');
    assertNoContent(await pins.confirm(id, second));
  });

  test("an unknown lead, or another company's, is 404 / 4040", async () => {
    assertError(await pins.confirm(randomUUID(), '123456'), 404, 4040, 'Lead not found');
    const id = await readyLead(t);
    const pin = await sendSms(id);
    const stranger = pinApi(t, await t.newPartner());
    assertError(await stranger.confirm(id, pin), 404, 4040, 'Lead not found');
    assertNoContent(await pins.confirm(id, pin));
  });

  test('after a full success a second confirmation is 409 / 4090', async () => {
    const id = await readyLead(t);
    const pin = await sendSms(id);
    assertNoContent(await pins.confirm(id, pin));
    const done = await pins.read(id);
    assertError(await pins.confirm(id, pin), 409, 4090, 'Lead already verified');
    assertError(await pins.confirm(id, otherThan(pin)), 409, 4090, 'Lead already verified');
    assert.deepEqual(await pins.read(id), done);
  });

  test(
    'simultaneous confirmations with the right PIN query ' + 'the bureau once: one 204, the others 409 / 4090',
    async () => {
      const id = await readyLead(t);
      const pin = await sendSms(id);
      const answers = await Promise.all([pins.confirm(id, pin), pins.confirm(id, pin), pins.confirm(id, pin)]);
      assert.deepEqual(answers.map((r) => r.statusCode).sort(), [204, 409, 409], answers.map((r) => r.body).join('\n'));
      for (const res of answers.filter((r) => r.statusCode === 409))
        assertError(res, 409, 4090, 'Lead already verified');
      const events = await pins.events(id);
      assert.equal(events.items.filter((e) => e.type === 'BUREAU_REPORT_RECEIVED').length, 1);
      assert.equal((await pins.read(id)).status, 'PREQUALIFIED');
    },
  );

  test('the PIN is stored only as a hash: no table holds it in clear', async () => {
    const id = await readyLead(t);
    const pin = await sendSms(id);
    const { rows } = await t.database.db.query<{ row: string }>(
      'select row_to_json(p)::text as row from lead_pins p where lead_id = $1',
      [id],
    );
    assert.equal(rows.length, 1);
    assert.ok(!rows[0].row.includes(pin), rows[0].row);
  });
}

function pinConfirmationTests3() {
  test(
    'a bureau that is unavailable (E1) is 412 / 603003; the ' +
      'lead stays VERIFIED and the same PIN is accepted again',
    async () => {
      const id = await readyLead(t, { rfc: sandboxRfc.E1 });
      const pin = await sendSms(id);
      const body = assertError(await pins.confirm(id, pin), 412, 603003, 'Third-party message error');
      assert.equal(String(body.code).length, 6);
      const lead = await pins.read(id);
      assert.equal(lead.status, 'VERIFIED');
      assert.ok(lead.verification.verifiedAt, 'the PIN was confirmed');
      assert.equal(lead.prequalification, null);
      // A retry reaches the bureau again (412, not 400): the confirmed PIN is still accepted.
      assertError(await pins.confirm(id, pin), 412, 603003, 'Third-party message error');
      assert.equal((await pins.read(id)).status, 'VERIFIED');
      assertError(await pins.send(id, 'SMS'), 409, 4090, 'Lead already verified');
    },
  );

  test('a bureau timeout (T1) is 412 / 603001 and the lead stays VERIFIED', async () => {
    const id = await readyLead(t, { rfc: sandboxRfc.T1 });
    const pin = await sendSms(id);
    assertError(await pins.confirm(id, pin), 412, 603001, 'Third-party message error');
    const lead = await pins.read(id);
    assert.equal(lead.status, 'VERIFIED');
    assert.equal(lead.prequalification, null);
  });

  test('after a full flow no phone, e-mail, PIN, RFC, birth date or name appears in the logs', async () => {
    const id = await readyLead(t);
    const pin = await sendSms(id);
    const emailBefore = t.outbox.email.length;
    assertNoContent(await pins.send(id, 'EMAIL'));
    const emailPin = pinFrom(t.outbox.email[emailBefore]);
    badRequest(await pins.confirm(id, otherThan(emailPin)), 'PIN_MISMATCH');
    assertNoContent(await pins.confirm(id, emailPin));
    const logs = t.logs.join('\n');
    assert.ok(logs.includes(id), 'the logs carry the lead id, so the check below is not vacuous');
    const secrets = [
      leadDefaults.phone,
      `+52${leadDefaults.phone}`,
      leadDefaults.email,
      sandboxRfc.A1,
      sandboxBirthDate,
      ...Object.values(leadDefaults.person),
      leadDefaults.address.street,
      t.partner.token,
    ];
    for (const secret of secrets) assert.ok(!logs.includes(secret), `the logs carry ${secret}`);
    for (const p of [pin, emailPin, otherThan(emailPin)]) {
      assert.doesNotMatch(logs, new RegExp(`(?<![0-9A-Za-z.])${p}(?![0-9A-Za-z])`), `the logs carry the PIN ${p}`);
    }
  });
}

describe('PIN confirmation', () => {
  before(async () => {
    t = await buildTestApp({ clock });
    pins = pinApi(t);
  });
  after(() => t.close());
  pinConfirmationTests1();
  pinConfirmationTests2();
  pinConfirmationTests3();
});

/** A bureau gateway that answers 500 first, then a valid report (docs/bureau-http-contract.md). */
async function flakyBureau() {
  const received: { url?: string; body: Record<string, unknown> }[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      received.push({ url: req.url, body: JSON.parse(raw) });
      if (received.length === 1) {
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end('{"error":"unavailable"}');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          provider: 'buro',
          folio: 'F-RETRY-000123',
          queriedAt: new Date().toISOString(),
          recordFound: true,
          score: 780,
          accounts: [
            {
              type: 'CREDIT_CARD',
              lender: 'Banco Uno',
              openedAt: '2019-04-01',
              creditLimit: 50000,
              balance: 3000,
              monthlyPayment: 600,
              worstDelinquencyDays: 0,
              worstDelinquencyDate: null,
            },
          ],
          inquiries: [],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('PIN confirmation retried after a bureau failure', () => {
  let t: TestApp;
  let bureau: Awaited<ReturnType<typeof flakyBureau>>;
  const clock = createManualClock();
  before(async () => {
    bureau = await flakyBureau();
    t = await buildTestApp({ clock, env: { BUREAU_PROVIDER: 'http', BUREAU_URL: bureau.url } });
  });
  after(async () => {
    await t?.close();
    await bureau?.close();
  });

  test(
    'a bureau 500 is 412 / 603003 leaving the lead VERIFIED; the same PIN, ' +
      'past its 10 minutes and after wrong tries, then pre-qualifies it',
    async () => {
      const pins = pinApi(t);
      const id = await readyLead(t);
      assertNoContent(await pins.send(id, 'SMS'));
      const pin = pinFrom(t.outbox.sms.at(-1)!);

      assertError(await pins.confirm(id, pin), 412, 603003, 'Third-party message error');
      const failed = await pins.read(id);
      assert.equal(failed.status, 'VERIFIED');
      assert.equal(failed.prequalification, null);

      clock.advance(15 * minute);
      // A verified lead gets no new PIN (409), so wrong tries must not void the one it has.
      for (let i = 0; i < 6; i++) badRequest(await pins.confirm(id, otherThan(pin)), 'PIN_MISMATCH');
      assertError(await pins.send(id, 'SMS'), 409, 4090, 'Lead already verified');
      assert.equal(bureau.received.length, 1, 'a wrong PIN never reaches the bureau');
      assertNoContent(await pins.confirm(id, pin));
      const lead = await pins.read(id);
      assert.equal(lead.status, 'PREQUALIFIED');
      assert.equal(lead.prequalification.decision, 'PREQUALIFIED');
      assert.deepEqual(
        { ...lead.prequalification.offer, monthlyPayment: undefined, cat: undefined, catDisclosure: undefined },
        {
          amountFinanced: 240000,
          term: 48,
          annualRate: 13.9,
          monthlyPayment: undefined,
          cat: undefined,
          catDisclosure: undefined,
        },
      );
      assert.equal(bureau.received.length, 2);
      for (const request of bureau.received) {
        assert.equal(request.url, '/v1/reports');
        assert.equal(request.body.rfc, sandboxRfc.A1);
        assert.equal(request.body.birthDate, sandboxBirthDate);
        assert.equal((request.body.address as { zipCode: string }).zipCode, '06700');
      }
      assertError(await pins.confirm(id, pin), 409, 4090, 'Lead already verified');
      assert.equal(bureau.received.length, 2, 'a verified, pre-qualified lead never queries the bureau again');
    },
  );
});
