import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { api, buildTestApp, createManualClock, show, type Partner, type TestApp } from '../../test/helper.ts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const prefill = {
  externalAutoId: 'STOCK-8841',
  phone: '5512345678',
  email: 'ana.lopez@example.com',
  downPayment: 60000,
  term: 48,
  purchaseIntention: 'WITHIN_A_MONTH',
};

let t: TestApp;

function create(payload?: unknown, headers: Record<string, string> = {}, partner: Partner = t.partner) {
  return t.app.inject({
    method: 'POST',
    url: `${api}/leads`,
    headers: { ...partner.headers, ...headers },
    ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });
}
const read = (id: string, partner: Partner = t.partner) =>
  t.app.inject({ method: 'GET', url: `${api}/leads/${id}`, headers: partner.headers });

/** Every lead of the partner's company, whatever its status, following the cursor. */
async function leadIds(partner: Partner): Promise<string[]> {
  const ids: string[] = [];
  for (const status of ['CREATED', 'IN_PROGRESS']) {
    let cursor: string | null = null;
    do {
      const res: LightMyRequestResponse = await t.app.inject({
        method: 'GET',
        url: `${api}/leads?status=${status}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        headers: partner.headers,
      });
      assert.equal(res.statusCode, 200, show(res));
      ids.push(...res.json().items.map((i: { id: string }) => i.id));
      cursor = res.json().nextCursor;
    } while (cursor);
  }
  return ids;
}

function assertCreated(res: LightMyRequestResponse): string {
  assert.equal(res.statusCode, 201, show(res));
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['id']);
  assert.match(body.id, uuid);
  assert.equal(res.headers.location, `${api}/leads/${body.id}`);
  return body.id;
}

function assertError(res: LightMyRequestResponse, status: number, code: number, message: string) {
  assert.equal(res.statusCode, status, show(res));
  const body = res.json();
  assert.equal(body.code, code, show(res));
  assert.equal(body.message, message);
  assert.equal(typeof body.timestamp, 'string');
  assert.equal(body.requestId, res.headers['x-request-id']);
  return body;
}

const invalid: [string, unknown, string[]][] = [
  ['a phone of 5 digits', { autoFinB2BLeadCreatePayload: { phone: '55123' } }, ['autoFinB2BLeadCreatePayload.phone']],
  [
    'a phone of 11 digits',
    { autoFinB2BLeadCreatePayload: { phone: '55123456789' } },
    ['autoFinB2BLeadCreatePayload.phone'],
  ],
  [
    'a phone with dashes',
    { autoFinB2BLeadCreatePayload: { phone: '55-1234-5678' } },
    ['autoFinB2BLeadCreatePayload.phone'],
  ],
  [
    'a phone given as a number',
    { autoFinB2BLeadCreatePayload: { phone: 5512345678 } },
    ['autoFinB2BLeadCreatePayload.phone'],
  ],
  [
    'a purchaseIntention outside the enum',
    { autoFinB2BLeadCreatePayload: { purchaseIntention: 'TOMORROW' } },
    ['autoFinB2BLeadCreatePayload.purchaseIntention'],
  ],
  [
    'an e-mail that is not well formed',
    { autoFinB2BLeadCreatePayload: { email: 'ana.example.com' } },
    ['autoFinB2BLeadCreatePayload.email'],
  ],
  [
    'a negative down payment',
    { autoFinB2BLeadCreatePayload: { downPayment: -1 } },
    ['autoFinB2BLeadCreatePayload.downPayment'],
  ],
  [
    'a term that is not a whole number of months',
    { autoFinB2BLeadCreatePayload: { term: 12.5 } },
    ['autoFinB2BLeadCreatePayload.term'],
  ],
  ['an unknown top-level field', { color: 'red' }, ['color']],
  ['an unknown pre-fill field', { autoFinB2BLeadCreatePayload: { vin: '3VW' } }, ['autoFinB2BLeadCreatePayload.vin']],
  ['an affiliate user_id that is not a uuid', { affiliate: { user_id: '12345' } }, ['affiliate.user_id']],
  ['an unknown affiliate field', { affiliate: { user_id: randomUUID(), role: 'x' } }, ['affiliate.role']],
  [
    'a bad phone and a bad user_id together',
    { affiliate: { user_id: 'x' }, autoFinB2BLeadCreatePayload: { phone: '1' } },
    ['affiliate.user_id', 'autoFinB2BLeadCreatePayload.phone'],
  ],
];

function leadCreationTests1() {
  test('answers 201 with {id} and a Location that reads the new lead back', async () => {
    const res = await create({});
    const id = assertCreated(res);
    assert.match(res.headers['content-type'] as string, /^application\/json/);
    const back = await t.app.inject({ method: 'GET', url: res.headers.location as string, headers: t.partner.headers });
    assert.equal(back.statusCode, 200, show(back));
    assert.equal(back.json().id, id);
  });

  test('no body at all, with or without a JSON content type, creates an empty CREATED lead', async () => {
    const withType = assertCreated(await create());
    const { 'content-type': _, ...noType } = t.partner.headers;
    const bare = await t.app.inject({ method: 'POST', url: `${api}/leads`, headers: noType });
    for (const id of [withType, assertCreated(bare)]) {
      const lead = (await read(id)).json();
      assert.equal(lead.status, 'CREATED');
      for (const section of [
        'externalAutoId',
        'affiliate',
        'loanInfo',
        'contact',
        'address',
        'vehicle',
        'financial',
        'person',
        'verification',
        'prequalification',
      ]) {
        assert.equal(lead[section], null, `${section} of an empty lead`);
      }
      assert.deepEqual(lead.warnings, []);
    }
  });

  test('an empty object creates an empty CREATED lead, each call a new one', async () => {
    const first = assertCreated(await create({}));
    const second = assertCreated(await create({}));
    assert.notEqual(first, second);
    const lead = (await read(first)).json();
    assert.equal(lead.status, 'CREATED');
    assert.equal(lead.contact, null);
    assert.equal(lead.loanInfo, null);
  });

  test('autoFinB2BLeadCreatePayload pre-fills contact, loan info and externalAutoId', async () => {
    const id = assertCreated(await create({ autoFinB2BLeadCreatePayload: prefill }));
    const lead = (await read(id)).json();
    assert.equal(lead.externalAutoId, 'STOCK-8841');
    assert.deepEqual(lead.contact, { phone: '5512345678', email: 'ana.lopez@example.com' });
    assert.deepEqual(lead.loanInfo, { downPayment: 60000, term: 48, purchaseIntention: 'WITHIN_A_MONTH' });
    assert.equal(lead.status, 'IN_PROGRESS', 'a pre-filled lead is no longer empty');
    for (const section of ['address', 'vehicle', 'financial', 'person']) assert.equal(lead[section], null, section);
  });

  test('a partial pre-fill stores only what was given', async () => {
    const id = assertCreated(await create({ autoFinB2BLeadCreatePayload: { email: 'solo@example.mx' } }));
    const lead = (await read(id)).json();
    assert.deepEqual(lead.contact, { phone: null, email: 'solo@example.mx' });
    assert.equal(lead.loanInfo, null);
    assert.equal(lead.externalAutoId, null);
  });

  test('an affiliate of the token’s company is stored on the lead, its user_id in any letter case', async () => {
    const given = assertCreated(await create({ affiliate: { user_id: t.partner.userId, user_type: 'GERENTE' } }));
    assert.deepEqual((await read(given)).json().affiliate, { user_id: t.partner.userId, user_type: 'GERENTE' });
    const upper = assertCreated(await create({ affiliate: { user_id: t.partner.userId.toUpperCase() } }));
    assert.deepEqual(
      (await read(upper)).json().affiliate,
      { user_id: t.partner.userId, user_type: 'SELLER' },
      'user_type defaults to the affiliate’s own',
    );
  });

  test('an affiliate given only by user_type is shown with a null user_id', async () => {
    const id = assertCreated(await create({ affiliate: { user_type: 'MARKETPLACE' } }));
    assert.deepEqual((await read(id)).json().affiliate, { user_id: null, user_type: 'MARKETPLACE' });
  });
}

function leadCreationTests2() {
  test('an unknown affiliate user_id answers 404 / 4046 Company not found and creates nothing', async () => {
    const partner = await t.newPartner();
    const unknown = randomUUID();
    const res = await create(
      { affiliate: { user_id: unknown, user_type: 'SELLER' }, autoFinB2BLeadCreatePayload: prefill },
      {},
      partner,
    );
    assert.deepEqual(
      assertError(res, 404, 4046, 'Company not found').additionalData,
      { affiliate: { user_id: unknown } },
      show(res),
    );
    assert.deepEqual(await leadIds(partner), []);
  });

  test('an affiliate of another company answers 404 / 4046 and creates nothing', async () => {
    const other = await t.newPartner();
    const partner = await t.newPartner();
    assertError(await create({ affiliate: { user_id: other.userId } }, {}, partner), 404, 4046, 'Company not found');
    assert.deepEqual(await leadIds(partner), []);
    assert.deepEqual(await leadIds(other), []);
  });

  test('invalid input answers 400 / 40015 naming every bad field, and creates nothing', async () => {
    const partner = await t.newPartner();
    for (const [name, payload, fields] of invalid) {
      const res = await create(payload, {}, partner);
      const body = assertError(res, 400, 40015, 'Bad Request');
      const listed = body.additionalData.errors.map((e: { field: string }) => e.field);
      for (const field of fields) assert.ok(listed.includes(field), `${name}: ${field} listed in ${show(res)}`);
      assert.ok(
        listed.every((f: string) => fields.includes(f)),
        `${name}: only the bad fields in ${show(res)}`,
      );
      for (const e of body.additionalData.errors) assert.ok(e.errorDetail, `${name}: errorDetail of ${e.field}`);
    }
    for (const raw of ['[]', '"lead"', '{"affiliate":', 'null x']) {
      assertError(await create(raw, {}, partner), 400, 40015, 'Bad Request');
    }
    assert.deepEqual(await leadIds(partner), []);
  });
}

function idempotencyKeyTests1() {
  test('the same key and body answer 201 with the same id, and only one lead exists', async () => {
    const partner = await t.newPartner();
    const body = { autoFinB2BLeadCreatePayload: prefill };
    const first = await create(body, { 'idempotency-key': 'order-1' }, partner);
    const id = assertCreated(first);
    const again = await create(body, { 'idempotency-key': 'order-1' }, partner);
    assert.equal(assertCreated(again), id);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(first.headers['idempotent-replayed'], undefined);
    assert.deepEqual(await leadIds(partner), [id]);
    const events = (
      await t.app.inject({ method: 'GET', url: `${api}/leads/${id}/events`, headers: partner.headers })
    ).json().items;
    assert.deepEqual(
      events.map((e: { type: string }) => e.type),
      ['LEAD_CREATED'],
    );
  });

  test('the same body with its keys in another order is the same request', async () => {
    const partner = await t.newPartner();
    const id = assertCreated(
      await create(
        { autoFinB2BLeadCreatePayload: { phone: '5512345678', term: 24 } },
        { 'idempotency-key': 'order-k' },
        partner,
      ),
    );
    const again = await create(
      { autoFinB2BLeadCreatePayload: { term: 24, phone: '5512345678' } },
      { 'idempotency-key': 'order-k' },
      partner,
    );
    assert.equal(assertCreated(again), id);
  });

  test('concurrent retries with one key create one lead', async () => {
    const partner = await t.newPartner();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => create({}, { 'idempotency-key': 'burst' }, partner)),
    );
    const ids = new Set(answers.map(assertCreated));
    assert.equal(ids.size, 1);
    assert.deepEqual(await leadIds(partner), [...ids]);
  });

  test('no body and an empty object are the same request for a key', async () => {
    const partner = await t.newPartner();
    const id = assertCreated(await create(undefined, { 'idempotency-key': 'empty' }, partner));
    assert.equal(assertCreated(await create({}, { 'idempotency-key': 'empty' }, partner)), id);
  });

  test('the same key with another body answers 409 / 4091 and changes nothing', async () => {
    const partner = await t.newPartner();
    const id = assertCreated(
      await create({ autoFinB2BLeadCreatePayload: prefill }, { 'idempotency-key': 'order-2' }, partner),
    );
    const before = (await read(id, partner)).json();
    const res = await create(
      { autoFinB2BLeadCreatePayload: { ...prefill, phone: '5599999999' } },
      { 'idempotency-key': 'order-2' },
      partner,
    );
    assertError(res, 409, 4091, 'Idempotency-Key reused with another request');
    assert.equal(res.headers.location, undefined);
    assert.deepEqual((await read(id, partner)).json(), before);
    assert.deepEqual(await leadIds(partner), [id]);
  });
}

function idempotencyKeyTests2() {
  test('another company using the same key gets its own lead', async () => {
    const [a, b] = [await t.newPartner(), await t.newPartner()];
    const idA = assertCreated(await create({}, { 'idempotency-key': 'shared-key' }, a));
    const idB = assertCreated(await create({}, { 'idempotency-key': 'shared-key' }, b));
    assert.notEqual(idA, idB);
    assert.equal((await read(idB, b)).statusCode, 200);
    assert.deepEqual(await leadIds(a), [idA]);
    assert.deepEqual(await leadIds(b), [idB]);
  });

  test('a key is remembered for 24 hours; after that the same key creates a new lead', async () => {
    const clock = createManualClock(new Date('2026-01-15T12:00:00Z'));
    const own = await buildTestApp({ clock });
    try {
      const post = async (body: object) => {
        // Tokens last an hour of the manual clock: take a fresh one for every call.
        const token = (
          await own.app.inject({
            method: 'POST',
            url: '/auth/token',
            payload: { consumer_key: own.partner.consumerKey, consumer_secret: own.partner.consumerSecret },
          })
        ).json().access_token;
        return own.app.inject({
          method: 'POST',
          url: `${api}/leads`,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'idempotency-key': 'daily',
          },
          payload: body,
        });
      };
      const id = assertCreated(await post({}));
      clock.advance(24 * 3600_000 - 60_000);
      assert.equal(assertCreated(await post({})), id, 'still the first answer a minute before 24 h');
      assert.equal((await post({ autoFinB2BLeadCreatePayload: { term: 12 } })).statusCode, 409);
      clock.advance(2 * 60_000);
      const fresh = assertCreated(await post({ autoFinB2BLeadCreatePayload: { term: 12 } }));
      assert.notEqual(fresh, id, 'a key older than 24 h is free again, whatever the body');
      assert.equal(assertCreated(await post({ autoFinB2BLeadCreatePayload: { term: 12 } })), fresh);
    } finally {
      await own.close();
    }
  });

  test('a key longer than 255 characters or with spaces answers 400 / 40015 on idempotency-key', async () => {
    const partner = await t.newPartner();
    for (const key of ['k'.repeat(256), 'two words']) {
      const body = assertError(await create({}, { 'idempotency-key': key }, partner), 400, 40015, 'Bad Request');
      assert.deepEqual(
        body.additionalData.errors.map((e: { field: string }) => e.field),
        ['idempotency-key'],
      );
    }
    assert.deepEqual(await leadIds(partner), []);
  });
}

function leadCreationTests3() {
  describe('Idempotency-Key', () => {
    idempotencyKeyTests1();
    idempotencyKeyTests2();
  });
}

describe('lead creation', () => {
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());
  leadCreationTests1();
  leadCreationTests2();
  leadCreationTests3();
});
