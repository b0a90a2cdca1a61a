import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { api, buildTestApp, show, type Partner, type TestApp } from '../../test/helper.ts';
import { rfcCheckDigit } from './rfc.ts';
import { multipart, png } from '../../test/document-files.ts';

const person = {
  firstName: 'Ana',
  secondName: 'María',
  lastName: 'López',
  secondLastName: 'García',
  rfc: `LOGA900215A1${rfcCheckDigit('LOGA900215A1')}`,
  birthDate: '1990-02-15',
};

/**
 * A valid body for every lead operation, by the path after `{leadId}`. A new lead route must be
 * added here: the suite fails on a route it does not know, so none escapes the tenancy check.
 */
const validBodies: Record<string, object | undefined> = {
  '': undefined,
  '/events': undefined,
  '/loan-info': { downPayment: 60000, term: 48, phone: '5599990000', purchaseIntention: 'JUST_SIMULATE' },
  '/contact-info': { phone: '5599990000', email: 'intruso@example.mx' },
  '/contact': { phone: '5599990000', email: 'intruso@example.mx' },
  '/address': { street: 'Insurgentes Sur', number: '1', zipCode: '06700', neighborhood: 'Roma Norte' },
  '/auto': { id: 371234, price: 1 },
  '/financial': { income: 1 },
  '/person': { ...person, firstName: 'Intrusa' },
  '/pin': { channel: 'SMS' },
  '/pin/confirmation': { pin: '123456', pinConfirmation: '123456' },
  // The documents' routes: an upload is multipart (below), the reads take no body.
  '/documents': undefined,
  '/documents/{documentId}': undefined,
};
const upload = multipart([
  { name: 'conditionId', value: 'cond_00000000000000000000' },
  { name: 'type', value: 'OTHER' },
  { name: 'file', fileName: 'intruso.png', contentType: 'image/png', data: png() },
]);
const httpMethods = ['get', 'put', 'post', 'patch', 'delete'];

let t: TestApp;
let owner: Partner;
let intruder: Partner;
let leadId: string;
let operations: { method: string; suffix: string }[];

const call = (partner: Partner, op: { method: string; suffix: string }, id: string, requestId: string) => {
  const isUpload = op.method === 'POST' && op.suffix === '/documents';
  return t.app.inject({
    method: op.method as 'GET',
    url: `${api}/leads/${id}${op.suffix.replace('{documentId}', randomUUID())}`,
    headers: { ...partner.headers, 'x-request-id': requestId, ...(isUpload ? upload.headers : {}) },
    ...(isUpload ? { payload: upload.payload } : {}),
    ...(validBodies[op.suffix] === undefined ? {} : { payload: JSON.stringify(validBodies[op.suffix]) }),
  });
};
const snapshot = async () => {
  const lead = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: owner.headers });
  const events = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}/events`, headers: owner.headers });
  assert.equal(lead.statusCode, 200, show(lead));
  return { lead: lead.json(), events: events.json() };
};
const withoutTimestamp = (res: LightMyRequestResponse) => res.body.replace(/"timestamp":"[^"]*"/, '"timestamp":"…"');

function tenancyTests() {
  test('the OpenAPI document lists every lead operation this suite covers', () => {
    const listed = operations.map((o) => `${o.method} ${o.suffix}`);
    for (const known of [
      'GET ',
      'GET /events',
      'PUT /loan-info',
      'PUT /contact-info',
      'PUT /contact',
      'PUT /address',
      'PUT /auto',
      'PUT /financial',
      'POST /person',
      'POST /documents',
      'GET /documents',
      'GET /documents/{documentId}',
    ]) {
      assert.ok(listed.includes(known), `${known} in ${listed.join(', ')}`);
    }
    for (const op of operations)
      assert.ok(op.suffix in validBodies, `no sample body for ${op.method} ${op.suffix}: add one to validBodies`);
  });

  test(
    'another company gets 404 / 4040 on every lead ' + 'operation, byte for byte the answer for a missing lead',
    async () => {
      const before = await snapshot();
      for (const op of operations) {
        const name = `${op.method} /leads/{leadId}${op.suffix}`;
        const foreign = await call(intruder, op, leadId, 'tenancy-check');
        const missing = await call(intruder, op, randomUUID(), 'tenancy-check');
        assert.equal(foreign.statusCode, 404, `${name}: ${show(foreign)}`);
        assert.equal(foreign.json().code, 4040, `${name}: ${show(foreign)}`);
        assert.equal(foreign.json().message, 'Lead not found');
        assert.equal(foreign.json().requestId, 'tenancy-check');
        assert.equal(
          withoutTimestamp(foreign),
          withoutTimestamp(missing),
          `${name}: a foreign lead must look exactly like a missing one`,
        );
        assert.equal(foreign.headers['content-type'], missing.headers['content-type'], name);
        assert.equal(foreign.headers['content-length'], missing.headers['content-length'], name);
        assert.equal(foreign.headers.location, undefined, name);
      }
      assert.deepEqual(await snapshot(), before, 'the lead and its history are unchanged');
    },
  );

  test('the owner still reads and writes the lead after the attempts', async () => {
    const res = await call(owner, { method: 'PUT', suffix: '/auto' }, leadId, 'owner-write');
    assert.equal(res.statusCode, 204, show(res));
    const lead = (await snapshot()).lead;
    assert.equal(lead.vehicle.price, 1);
    assert.equal(lead.person.firstName, 'Ana');
  });

  test('the lead list never shows another company’s leads, whatever the filter', async () => {
    const queries = ['', 'limit=100', 'status=CREATED', 'status=IN_PROGRESS', 'createdFrom=2000-01-01'];
    for (const query of queries) {
      const res = await t.app.inject({ method: 'GET', url: `${api}/leads?${query}`, headers: intruder.headers });
      assert.equal(res.statusCode, 200, show(res));
      assert.deepEqual(res.json().items, [], `intruder ${query}`);
    }
    const own = await t.app.inject({ method: 'GET', url: `${api}/leads?status=IN_PROGRESS`, headers: owner.headers });
    assert.ok(
      own.json().items.some((i: { id: string }) => i.id === leadId),
      show(own),
    );
  });

  test('a cursor of one company’s list does not open another company’s leads', async () => {
    const more = await Promise.all(
      [1, 2, 3].map(() =>
        t.app.inject({
          method: 'POST',
          url: `${api}/leads`,
          headers: owner.headers,
          payload: { autoFinB2BLeadCreatePayload: { term: 12 } },
        }),
      ),
    );
    for (const res of more) assert.equal(res.statusCode, 201, show(res));
    const first = (await t.app.inject({ method: 'GET', url: `${api}/leads?limit=1`, headers: owner.headers })).json();
    assert.ok(first.nextCursor, 'the owner has more than one page');
    const res = await t.app.inject({
      method: 'GET',
      url: `${api}/leads?limit=100&cursor=${first.nextCursor}`,
      headers: intruder.headers,
    });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(res.json().items, []);
  });
}

describe('tenancy: a lead exists only for its own company', () => {
  before(async () => {
    t = await buildTestApp();
    owner = t.partner;
    intruder = await t.newPartner();
    const created = await t.app.inject({
      method: 'POST',
      url: `${api}/leads`,
      headers: owner.headers,
      payload: { autoFinB2BLeadCreatePayload: { phone: '5512345678', email: 'ana@example.mx', term: 48 } },
    });
    leadId = created.json().id;
    for (const [method, path, body, status] of [
      [
        'PUT',
        'address',
        { street: 'Av. Álvaro Obregón', number: '120', zipCode: '06700', neighborhood: 'Roma Norte' },
        200,
      ],
      ['POST', 'person', person, 200],
      ['PUT', 'auto', { id: 371234, price: 320000 }, 204],
      ['PUT', 'financial', { income: 45000 }, 200],
    ] as const) {
      const res = await t.app.inject({
        method,
        url: `${api}/leads/${leadId}/${path}`,
        headers: owner.headers,
        payload: body,
      });
      assert.equal(res.statusCode, status, show(res));
    }
    const doc = (await t.app.inject({ method: 'GET', url: `${api}/openapi.json` })).json();
    operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith(`${api}/leads/{leadId}`))
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((m) => httpMethods.includes(m))
          .map((m) => ({ method: m.toUpperCase(), suffix: path.slice(`${api}/leads/{leadId}`.length) })),
      );
  });
  after(() => t.close());
  tenancyTests();
});
