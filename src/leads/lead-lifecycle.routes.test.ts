import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { api, buildTestApp, createManualClock, show, type TestApp } from '../../test/helper.ts';
import type { LeadStatus } from '../lead-status/index.ts';
import { rfcCheckDigit } from './rfc.ts';

const person = {
  firstName: 'Ana',
  secondName: 'María',
  lastName: 'López',
  secondLastName: 'García',
  rfc: `LOGA900215A1${rfcCheckDigit('LOGA900215A1')}`,
  birthDate: '1990-02-15',
};
const address = { street: 'Av. Álvaro Obregón', number: '120', zipCode: '06700', neighborhood: 'Roma Norte' };
const financial = { employmentType: 'Empleado', income: 45000, employmentCompany: 'Comercial del Centro' };

const clock = createManualClock(new Date('2026-01-15T12:00:00Z'));
let t: TestApp;

const call = (method: string, path: string, body?: unknown, headers = t.partner.headers) =>
  t.app.inject({
    method: method as 'GET',
    url: `${api}/leads${path}`,
    headers,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const read = async (id: string) => {
  const res = await call('GET', `/${id}`);
  assert.equal(res.statusCode, 200, show(res));
  return res.json();
};
const newLead = async (body: object = {}) => {
  const res = await call('POST', '', body);
  assert.equal(res.statusCode, 201, show(res));
  return res.json().id as string;
};
const listedIds = async (query = '') =>
  ((await call('GET', `?limit=100${query}`)).json().items as { id: string }[]).map((i) => i.id);
function expect(res: LightMyRequestResponse, status: number, what: string) {
  assert.equal(res.statusCode, status, `${what}: ${show(res)}`);
}
const setStatus = (id: string, status: LeadStatus) => t.leads.repository.update(id, { status }, clock.now());

function leadLifecycleTests1() {
  test('a new lead is CREATED and is not in the default list, only under status=CREATED', async () => {
    const id = await newLead();
    assert.equal((await read(id)).status, 'CREATED');
    assert.ok(!(await listedIds()).includes(id));
    assert.ok((await listedIds('&status=CREATED')).includes(id));
  });

  test('contact-info creates the card: IN_PROGRESS and in the default list', async () => {
    const id = await newLead();
    expect(
      await call('PUT', `/${id}/contact-info`, { phone: '5512345678', email: 'ana@example.mx' }),
      204,
      'contact-info',
    );
    assert.equal((await read(id)).status, 'IN_PROGRESS');
    assert.ok((await listedIds()).includes(id));
    assert.ok(!(await listedIds('&status=CREATED')).includes(id));
  });

  test('any other section write also moves a CREATED lead to IN_PROGRESS', async () => {
    const writes: [string, string, object, number][] = [
      ['PUT', 'loan-info', { term: 12 }, 204],
      ['PUT', 'contact', { email: 'a@example.mx' }, 204],
      ['PUT', 'address', address, 200],
      ['PUT', 'auto', { id: 371234 }, 204],
      ['PUT', 'financial', financial, 200],
      ['POST', 'person', person, 200],
    ];
    for (const [method, path, body, status] of writes) {
      const id = await newLead();
      expect(await call(method, `/${id}/${path}`, body), status, path);
      assert.equal((await read(id)).status, 'IN_PROGRESS', path);
    }
  });

  test('a rejected write leaves a CREATED lead CREATED', async () => {
    const id = await newLead();
    expect(await call('PUT', `/${id}/contact-info`, { phone: '1', email: 'a@example.mx' }), 400, 'bad contact-info');
    assert.equal((await read(id)).status, 'CREATED');
  });

  test('creation, contact info and contact all set the lead’s one phone and e-mail; the last write wins', async () => {
    const id = await newLead({ autoFinB2BLeadCreatePayload: { phone: '5500000001', email: 'uno@example.mx' } });
    assert.deepEqual((await read(id)).contact, { phone: '5500000001', email: 'uno@example.mx' });
    const steps: [string, object, number, { phone: string; email: string }][] = [
      ['loan-info', { phone: '5500000002' }, 204, { phone: '5500000002', email: 'uno@example.mx' }],
      [
        'contact-info',
        { phone: '5500000003', email: 'tres@example.mx' },
        204,
        { phone: '5500000003', email: 'tres@example.mx' },
      ],
      ['contact', { email: 'cuatro@example.mx' }, 204, { phone: '5500000003', email: 'cuatro@example.mx' }],
      ['contact', { phone: '5500000005' }, 204, { phone: '5500000005', email: 'cuatro@example.mx' }],
      ['loan-info', { term: 24 }, 204, { phone: '5500000005', email: 'cuatro@example.mx' }],
      ['loan-info', { phone: '5500000006' }, 204, { phone: '5500000006', email: 'cuatro@example.mx' }],
    ];
    for (const [path, body, status, contact] of steps) {
      expect(await call('PUT', `/${id}/${path}`, body), status, path);
      assert.deepEqual((await read(id)).contact, contact, `after ${path} ${JSON.stringify(body)}`);
    }
  });
}

function leadLifecycleTests2() {
  describe('once VERIFIED', () => {
    let id: string;
    let frozen: Record<string, unknown>;
    before(async () => {
      id = await newLead({ autoFinB2BLeadCreatePayload: { phone: '5512345678', email: 'ana@example.mx', term: 48 } });
      expect(await call('PUT', `/${id}/address`, address), 200, 'address');
      expect(await call('POST', `/${id}/person`, person), 200, 'person');
      await setStatus(id, 'VERIFIED');
      frozen = await read(id);
    });

    const refused: [string, string, string, object][] = [
      ['contact info', 'PUT', 'contact-info', { phone: '5599999999', email: 'otra@example.mx' }],
      ['contact info with the same values', 'PUT', 'contact-info', { phone: '5512345678', email: 'ana@example.mx' }],
      ['contact', 'PUT', 'contact', { email: 'otra@example.mx' }],
      ['address', 'PUT', 'address', { ...address, number: '121' }],
      ['person', 'POST', 'person', { ...person, firstName: 'Anita' }],
      ['loan info with another phone', 'PUT', 'loan-info', { phone: '5599999999', term: 12 }],
    ];
    for (const [name, method, path, body] of refused) {
      test(`${name} answers 409 / 4090 Lead already verified and changes nothing`, async () => {
        const res = await call(method, `/${id}/${path}`, body);
        assert.equal(res.statusCode, 409, show(res));
        assert.equal(res.json().code, 4090);
        assert.equal(res.json().message, 'Lead already verified');
        assert.deepEqual(await read(id), frozen);
      });
    }

    test('loan info without a phone or with the same phone answers 204 and saves the loan info', async () => {
      expect(await call('PUT', `/${id}/loan-info`, { term: 36 }), 204, 'no phone');
      expect(await call('PUT', `/${id}/loan-info`, { phone: '5512345678', downPayment: 50000 }), 204, 'same phone');
      const lead = await read(id);
      assert.deepEqual(lead.loanInfo, { term: 36, downPayment: 50000 });
      assert.deepEqual(lead.contact, frozen.contact);
      assert.equal(lead.status, 'VERIFIED');
      frozen = lead;
    });

    test('the vehicle and financial saves still save, and the lead stays VERIFIED', async () => {
      expect(await call('PUT', `/${id}/auto`, { id: 371234, price: 300000 }), 204, 'auto');
      expect(await call('PUT', `/${id}/financial`, financial), 200, 'financial');
      const lead = await read(id);
      assert.equal(lead.vehicle.price, 300000);
      assert.deepEqual(lead.financial, financial);
      assert.equal(lead.status, 'VERIFIED');
      assert.deepEqual([lead.person, lead.address, lead.contact], [frozen.person, frozen.address, frozen.contact]);
      frozen = lead;
    });

    test('PREQUALIFIED and NOT_PREQUALIFIED leads are frozen too', async () => {
      for (const status of ['PREQUALIFIED', 'NOT_PREQUALIFIED'] as const) {
        await setStatus(id, status);
        const before = await read(id);
        for (const [, method, path, body] of refused) {
          const res = await call(method, `/${id}/${path}`, body);
          assert.equal(res.statusCode, 409, `${status} ${path}: ${show(res)}`);
          assert.equal(res.json().code, 4090);
        }
        expect(await call('PUT', `/${id}/auto`, { id: 371234, price: 310000 }), 204, `${status} auto`);
        assert.equal((await read(id)).status, status);
        assert.deepEqual((await read(id)).person, before.person);
      }
    });
  });
}

function leadLifecycleTests3() {
  describe('history (GET /leads/{id}/events)', () => {
    test('lists who changed which section when, in order, with field names only', async () => {
      const credential = (
        await t.app.inject({
          method: 'POST',
          url: `/admin/companies/${t.partner.companyId}/credentials`,
          headers: t.admin,
        })
      ).json();
      const token = (await t.app.inject({ method: 'POST', url: '/auth/token', payload: credential })).json()
        .access_token;
      const second = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const start = clock.now().getTime();
      const id = await newLead({ autoFinB2BLeadCreatePayload: { externalAutoId: 'STOCK-1', phone: '5512345678' } });
      const writes: [string, string, object, Record<string, string>][] = [
        ['PUT', 'contact-info', { phone: '5587654321', email: 'ana.lopez@example.com' }, t.partner.headers],
        ['PUT', 'address', { ...address, interior: '4B' }, second],
        ['POST', 'person', person, t.partner.headers],
        ['PUT', 'financial', financial, second],
        ['PUT', 'contact', { email: 'ana.garcia@example.com' }, t.partner.headers],
        ['PUT', 'loan-info', { downPayment: 60000, phone: '5511112222' }, t.partner.headers],
        ['PUT', 'auto', { id: 371234, price: 320000 }, second],
      ];
      for (const [method, path, body, headers] of writes) {
        clock.advance(60_000);
        const res = await call(method, `/${id}/${path}`, body, headers);
        assert.ok([200, 204].includes(res.statusCode), show(res));
      }
      clock.advance(60_000);
      expect(await call('PUT', `/${id}/contact`, { email: 'bad' }), 400, 'a rejected write');
      const res = await call('GET', `/${id}/events`);
      assert.equal(res.statusCode, 200, show(res));
      const items = res.json().items as { id: string; type: string; at: string; actor: string; fields: string[] }[];
      const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
      const [first, second_] = [t.partner.consumerKey, credential.consumer_key];
      assert.deepEqual(
        items.map(({ type, at, actor, fields }) => ({ type, at, actor, fields: [...fields].sort() })),
        [
          { type: 'LEAD_CREATED', at: at(0), actor: first, fields: ['externalAutoId', 'phone'] },
          { type: 'CONTACT_INFO_SAVED', at: at(1), actor: first, fields: ['email', 'phone'] },
          {
            type: 'ADDRESS_SAVED',
            at: at(2),
            actor: second_,
            fields: ['interior', 'neighborhood', 'number', 'street', 'zipCode'],
          },
          {
            type: 'PERSON_SAVED',
            at: at(3),
            actor: first,
            fields: ['birthDate', 'firstName', 'lastName', 'rfc', 'secondLastName', 'secondName'],
          },
          {
            type: 'FINANCIAL_SAVED',
            at: at(4),
            actor: second_,
            fields: ['employmentCompany', 'employmentType', 'income'],
          },
          { type: 'CONTACT_UPDATED', at: at(5), actor: first, fields: ['email'] },
          { type: 'LOAN_INFO_SAVED', at: at(6), actor: first, fields: ['downPayment', 'phone'] },
          { type: 'VEHICLE_SAVED', at: at(7), actor: second_, fields: ['id', 'price'] },
        ],
      );
      assert.equal(new Set(items.map((i) => i.id)).size, items.length, 'event ids are unique');
      const values = [
        '5512345678',
        '5587654321',
        '5511112222',
        'ana.lopez@example.com',
        'ana.garcia@example.com',
        'Álvaro',
        'López',
        'García',
        'María',
        person.rfc,
        '1990-02-15',
        '45000',
        'Comercial del Centro',
        '06700',
        'Roma Norte',
        '60000',
        '320000',
        'STOCK-1',
      ];
      for (const item of items) assert.deepEqual(Object.keys(item).sort(), ['actor', 'at', 'fields', 'id', 'type']);
      // Ids and keys are random text that could hold a digit run by chance: look at everything else.
      const scrubbed = JSON.stringify(items.map(({ type, at, fields }) => ({ type, at, fields })));
      for (const value of values) assert.ok(!scrubbed.includes(value), `the history must not carry the value ${value}`);
      for (const value of values.filter((v) => /[^0-9a-f-]/i.test(v)))
        assert.ok(!res.body.includes(value), `the history must not carry ${value}`);
    });
  });
}

describe('lead statuses, the one phone and e-mail, the verified freeze and the history', () => {
  before(async () => {
    t = await buildTestApp({ clock });
  });
  after(() => t.close());
  leadLifecycleTests1();
  leadLifecycleTests2();
  leadLifecycleTests3();
});
