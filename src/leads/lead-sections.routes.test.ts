import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { isoDateInMexico } from '../shared/index.ts';
import { rfcCheckDigit } from './rfc.ts';
import type { Db } from '../db/index.ts';

const rfcFor = (first12: string) => `${first12}${rfcCheckDigit(first12)}`;
const person = {
  firstName: 'Ana',
  secondName: 'María',
  lastName: 'López',
  secondLastName: 'García',
  rfc: rfcFor('LOGA900215A1'),
  birthDate: '1990-02-15',
};
const address = {
  street: 'Av. Álvaro Obregón',
  number: '120',
  interior: '4B',
  zipCode: '06700',
  neighborhood: 'Roma Norte',
};
const financial = {
  employmentType: 'Empleado',
  startEmploymentDate: '2019-03-01',
  startDate: { year: 2019, month: 3 },
  jobPosition: 'Analista de crédito',
  jobTitle: 'Analista',
  businessLine: 'Servicios financieros',
  employmentCompany: 'Comercial del Centro SA de CV',
  income: 45000,
};

type Op = { method: 'PUT' | 'POST'; path: string; status: 200 | 204; body: object };
/** Each section save with a valid body, and the exact success status the spec gives. */
const ops: Record<string, Op> = {
  'loan-info': {
    method: 'PUT',
    path: 'loan-info',
    status: 204,
    body: { downPayment: 60000, term: 48, phone: '5512345678', purchaseIntention: 'WITHIN_A_MONTH' },
  },
  'contact-info': {
    method: 'PUT',
    path: 'contact-info',
    status: 204,
    body: { phone: '5512345678', email: 'ana.lopez@example.com' },
  },
  contact: {
    method: 'PUT',
    path: 'contact',
    status: 204,
    body: { phone: '5587654321', email: 'ana.garcia@example.mx' },
  },
  address: { method: 'PUT', path: 'address', status: 200, body: address },
  auto: { method: 'PUT', path: 'auto', status: 204, body: { id: 371234, price: 320000 } },
  financial: { method: 'PUT', path: 'financial', status: 200, body: financial },
  person: { method: 'POST', path: 'person', status: 200, body: person },
};

let t: TestApp;

const send = (op: Op, leadId: string, body: unknown = op.body) =>
  t.app.inject({
    method: op.method,
    url: `${api}/leads/${leadId}/${op.path}`,
    headers: t.partner.headers,
    payload: JSON.stringify(body),
  });
const read = async (id: string) => {
  const res = await t.app.inject({ method: 'GET', url: `${api}/leads/${id}`, headers: t.partner.headers });
  assert.equal(res.statusCode, 200, show(res));
  return res.json();
};
const newLead = async () =>
  (await t.app.inject({ method: 'POST', url: `${api}/leads`, headers: t.partner.headers, payload: '{}' })).json()
    .id as string;
async function save(op: Op, leadId: string, body: unknown = op.body) {
  const res = await send(op, leadId, body);
  assert.equal(res.statusCode, op.status, `${op.path}: ${show(res)}`);
}
function assertError(res: LightMyRequestResponse, status: number, code: number, message: string) {
  assert.equal(res.statusCode, status, show(res));
  assert.equal(res.json().code, code, show(res));
  assert.equal(res.json().message, message, show(res));
  return res.json();
}
const fieldsOf = (res: LightMyRequestResponse): string[] =>
  (res.json().additionalData?.errors ?? []).map((e: { field: string }) => e.field);

const today = new Date();
const tomorrow = isoDateInMexico(new Date(today.getTime() + 36 * 3600 * 1000));
const minorBirth = `${today.getUTCFullYear() - 17}-06-15`;
const minorRfc = rfcFor(`LOGA${minorBirth.slice(2, 4)}0615A1`);
const invalid: [string, string, object, string][] = [
  ['loan-info', 'a phone with dashes', { phone: '55-1234-5678' }, 'phone'],
  ['loan-info', 'a phone of 9 digits', { phone: '551234567' }, 'phone'],
  ['loan-info', 'a purchaseIntention outside the enum', { purchaseIntention: 'SOMEDAY' }, 'purchaseIntention'],
  ['loan-info', 'a negative down payment', { downPayment: -1 }, 'downPayment'],
  ['loan-info', 'a term of 0 months', { term: 0 }, 'term'],
  ['loan-info', 'an unknown field', { rate: 12 }, 'rate'],
  ['contact-info', 'no e-mail', { phone: '5512345678' }, 'email'],
  ['contact-info', 'no phone', { email: 'a@example.mx' }, 'phone'],
  ['contact-info', 'letters in the phone', { phone: '55ABCD5678', email: 'a@example.mx' }, 'phone'],
  ['contact-info', 'an e-mail that is not well formed', { phone: '5512345678', email: 'ana' }, 'email'],
  ['address', 'markup in the street', { ...address, street: '<script>alert(1)</script>' }, 'street'],
  ['address', 'an @ in the street', { ...address, street: 'ana@calle' }, 'street'],
  ['address', 'a ; in the number', { ...address, number: '12;' }, 'number'],
  ['address', 'a quote in the interior', { ...address, interior: '4"B' }, 'interior'],
  ['address', 'a neighborhood of 66 characters', { ...address, neighborhood: 'a'.repeat(66) }, 'neighborhood'],
  ['address', 'a ZIP code of 4 digits', { ...address, zipCode: '6700' }, 'zipCode'],
  ['address', 'a ZIP code of 6 digits', { ...address, zipCode: '067000' }, 'zipCode'],
  ['address', 'a ZIP code that does not exist', { ...address, zipCode: '00001' }, 'zipCode'],
  ['address', 'no street', { number: '1', zipCode: '06700', neighborhood: 'Roma Norte' }, 'street'],
  ['address', 'a street of spaces only', { ...address, street: '   ' }, 'street'],
  ['address', 'a number of spaces only', { ...address, number: ' ' }, 'number'],
  ['auto', 'a version id that does not exist', { id: 1, price: 320000 }, 'id'],
  ['auto', 'a price of 0', { id: 371234, price: 0 }, 'price'],
  ['auto', 'a negative price', { id: 371234, price: -5 }, 'price'],
  ['auto', 'an id that is not an integer', { id: '371234x' }, 'id'],
  ['auto', 'no id', { price: 320000 }, 'id'],
  ['financial', 'month 13 of the start date', { startDate: { year: 2020, month: 13 } }, 'startDate.month'],
  ['financial', 'month 0 of the start date', { startDate: { year: 2020, month: 0 } }, 'startDate.month'],
  ['financial', 'a start date in the future', { startEmploymentDate: tomorrow }, 'startEmploymentDate'],
  ['financial', 'a start date that is not a date', { startEmploymentDate: '2020-02-30' }, 'startEmploymentDate'],
  ['financial', 'a jobTitle outside the enum', { jobTitle: 'Astronauta' }, 'jobTitle'],
  ['financial', 'a businessLine outside the enum', { businessLine: 'Piratería' }, 'businessLine'],
  ['financial', 'an employmentType outside the enum', { employmentType: 'Freelance' }, 'employmentType'],
  ['financial', 'a negative income', { income: -0.01 }, 'income'],
  ['person', 'no RFC', { ...person, rfc: undefined }, 'rfc'],
  ['person', 'no birth date', { ...person, birthDate: undefined }, 'birthDate'],
  ['person', 'no first name', { ...person, firstName: undefined }, 'firstName'],
  ['person', 'a birth date that is not ISO', { ...person, birthDate: '15/02/1990' }, 'birthDate'],
  ['person', 'a minor', { ...person, birthDate: minorBirth, rfc: minorRfc }, 'birthDate'],
  ['person', 'an RFC of the wrong shape', { ...person, rfc: 'LOGA-900215' }, 'rfc'],
  ['person', 'an RFC whose date is not the birth date', { ...person, rfc: rfcFor('LOGA900216A1') }, 'rfc'],
  ['person', 'the generic RFC', { ...person, rfc: 'XAXX010101000' }, 'rfc'],
];

function sectionWriteTests1() {
  test(
    'each write answers its exact status: 204 for loan-info, contact-info, ' +
      'contact, auto; 200 with no body for address, financial, person',
    async () => {
      const id = await newLead();
      for (const op of Object.values(ops)) {
        const res = await send(op, id);
        assert.equal(res.statusCode, op.status, `${op.path}: ${show(res)}`);
        assert.equal(res.body, '', `${op.path} has no body`);
        if (op.status === 200) assert.equal(res.headers['content-length'], '0', `${op.path} sends content-length 0`);
        else
          assert.ok(
            [undefined, '0'].includes(res.headers['content-length'] as string | undefined),
            `${op.path}: a 204 carries no length`,
          );
        assert.equal(res.headers['content-type'], undefined, `${op.path} declares no content type for an empty body`);
      }
    },
  );

  test('every saved section reads back through GET /leads/{id}', async () => {
    const id = await newLead();
    for (const op of Object.values(ops)) await save(op, id);
    const lead = await read(id);
    assert.equal(lead.status, 'IN_PROGRESS');
    assert.deepEqual(lead.loanInfo, { downPayment: 60000, term: 48, purchaseIntention: 'WITHIN_A_MONTH' });
    assert.deepEqual(
      lead.contact,
      { phone: '5587654321', email: 'ana.garcia@example.mx' },
      'the contact save wrote last',
    );
    assert.deepEqual(lead.address, {
      ...address,
      neighborhoodMatched: true,
      municipality: 'Cuauhtémoc',
      city: 'Ciudad de México',
      state: { id: '09', name: 'Ciudad de México' },
    });
    assert.deepEqual(lead.vehicle, {
      id: 371234,
      price: 320000,
      year: 2024,
      brand: { id: '60', name: 'MG' },
      model: { id: '990', name: 'MG5' },
      version: lead.vehicle.version,
    });
    assert.match(lead.vehicle.version, /\S/);
    assert.deepEqual(lead.financial, financial);
    assert.deepEqual(lead.person, person);
    assert.deepEqual(lead.warnings, []);
  });

  test('an unknown lead answers 404 / 4040 Lead not found on every write', async () => {
    for (const op of Object.values(ops)) {
      const body = assertError(await send(op, randomUUID()), 404, 4040, 'Lead not found');
      assert.equal(body.additionalData, null, op.path);
    }
  });

  test('a leadId in upper case addresses the same lead, and what it writes stays readable', async () => {
    const id = await newLead();
    const upper = id.toUpperCase();
    for (const op of Object.values(ops)) await save(op, upper);
    for (const spelling of [id, upper]) {
      const lead = await read(spelling);
      assert.equal(lead.id, id);
      assert.deepEqual(lead.person, person);
      assert.deepEqual(lead.financial, financial);
      assert.equal(lead.address.street, address.street);
      assert.deepEqual(lead.contact, ops.contact.body);
    }
    const events = await t.app.inject({
      method: 'GET',
      url: `${api}/leads/${upper}/events`,
      headers: t.partner.headers,
    });
    assert.equal(events.json().items.length, 8, show(events));
  });

  test(
    'a leadId that is not a uuid answers 400 on leadId for every ' +
      'write (code 40015, and 400 on the contact save as its other 400s)',
    async () => {
      for (const op of Object.values(ops)) {
        for (const bad of ['123', 'not-a-uuid', `${randomUUID()}0`]) {
          const res = await send(op, bad);
          assertError(res, 400, op.path === 'contact' ? 400 : 40015, 'Bad Request');
          assert.deepEqual(fieldsOf(res), ['leadId'], `${op.path} ${bad}`);
        }
      }
    },
  );
}

/** What a save asks of the database (docs/architecture.md): the lead is read only when it must be. */
function sectionStatementTests() {
  test('a save that passes its checks is one statement; a failed check reads the lead, writes nothing', async () => {
    const id = await newLead();
    const db = t.database.db as { query: Db['query'] };
    const query = db.query;
    const statements: string[] = [];
    // What touches the leads table (a credential's status may be read meanwhile), but the lead's key, read
    // before the save (src/lead-keys), which only looks whether the lead's personal data was erased.
    db.query = (sql, params) => {
      if (/\b(from|update|into) leads\b/.test(sql) && !/insert into lead_keys/.test(sql))
        statements.push(sql.replace(/\s+/g, ' ').trim());
      return query(sql, params);
    };
    try {
      for (const op of Object.values(ops)) {
        statements.length = 0;
        await save(op, id);
        assert.equal(statements.length, 1, `${op.path}: ${statements.join(' | ')}`);
        assert.match(statements[0]!, /^with updated as \( update leads set /, op.path);
      }
      statements.length = 0;
      assertError(await send(ops.auto, id, { id: 1, price: 320000 }), 400, 40015, 'Bad Request');
      assert.deepEqual(statements, ['select * from leads where id = $1 and company_id = $2']);
    } finally {
      db.query = query;
    }
  });
}

function sectionWriteTests2() {
  test('invalid input answers 400 / 40015 on the bad field and changes nothing', async () => {
    const id = await newLead();
    for (const op of Object.values(ops)) await save(op, id);
    const before = await read(id);
    for (const [path, name, body, field] of invalid) {
      const res = await send(ops[path], id, body);
      assertError(res, 400, 40015, 'Bad Request');
      assert.ok(fieldsOf(res).includes(field), `${path}, ${name}: ${field} listed in ${show(res)}`);
      assert.deepEqual(await read(id), before, `${path}, ${name} changed the lead`);
    }
  });

  test('the contact save answers 400 with code 400 listing both phone and email, and changes nothing', async () => {
    const id = await newLead();
    await save(ops['contact-info'], id);
    const before = await read(id);
    const res = await send(ops.contact, id, { phone: '12345', email: 'not an e-mail' });
    const body = assertError(res, 400, 400, 'Bad Request');
    assert.deepEqual(body.additionalData.errors.map((e: { field: string }) => e.field).sort(), ['email', 'phone']);
    for (const e of body.additionalData.errors) assert.ok(e.errorDetail, e.field);
    assert.equal(
      assertError(await send(ops.contact, id, { fax: '1' }), 400, 400, 'Bad Request').additionalData.errors[0].field,
      'fax',
    );
    assert.deepEqual(await read(id), before);
  });

  test('address text accepts Spanish accented letters, ñ and the characters ( ) . # -', async () => {
    const id = await newLead();
    const text = {
      street: 'Calle Niños Héroes (Ote.) #12-A',
      number: 'Núm. 3',
      interior: 'Depto. Ñ-2',
      zipCode: '06700',
      neighborhood: 'Roma Norte',
    };
    await save(ops.address, id, text);
    const stored = (await read(id)).address;
    for (const key of ['street', 'number', 'interior'] as const) assert.equal(stored[key], text[key]);
  });

  test('"roma norte" is stored with the catalog spelling "Roma Norte" and marked matched', async () => {
    const id = await newLead();
    await save(ops.address, id, { ...address, neighborhood: '  roma   NORTE ' });
    const lead = await read(id);
    assert.equal(lead.address.neighborhood, 'Roma Norte');
    assert.equal(lead.address.neighborhoodMatched, true);
    assert.deepEqual(lead.warnings, []);
  });

  test('an unmatched neighborhood is stored as given with a warning, which a matching address clears', async () => {
    const id = await newLead();
    await save(ops.address, id, { ...address, neighborhood: 'Colonia Inventada' });
    let lead = await read(id);
    assert.equal(lead.address.neighborhood, 'Colonia Inventada');
    assert.equal(lead.address.neighborhoodMatched, false);
    assert.deepEqual(
      lead.warnings.map((w: { code: string; field: string }) => [w.code, w.field]),
      [['NEIGHBORHOOD_NOT_IN_ZIP_CODE', 'address.neighborhood']],
    );
    await save(ops.address, id);
    lead = await read(id);
    assert.equal(lead.address.neighborhoodMatched, true);
    assert.deepEqual(lead.warnings, []);
  });

  test(
    'an RFC with a wrong check digit is accepted (200) with a ' +
      'RFC_CHECK_DIGIT_MISMATCH warning, cleared by a correct one',
    async () => {
      const id = await newLead();
      const wrong = person.rfc.slice(0, 12) + (person.rfc[12] === '7' ? '8' : '7');
      await save(ops.person, id, { ...person, rfc: wrong });
      let lead = await read(id);
      assert.equal(lead.person.rfc, wrong);
      assert.equal(lead.warnings.length, 1, JSON.stringify(lead.warnings));
      assert.equal(lead.warnings[0].code, 'RFC_CHECK_DIGIT_MISMATCH');
      assert.equal(lead.warnings[0].field, 'person.rfc');
      assert.ok(!JSON.stringify(lead.warnings).includes(wrong), 'the warning does not repeat the RFC');
      await save(ops.person, id);
      lead = await read(id);
      assert.equal(lead.person.rfc, person.rfc);
      assert.deepEqual(lead.warnings, []);
    },
  );

  test('a lower-case RFC and padded names are stored normalized', async () => {
    const id = await newLead();
    await save(ops.person, id, { ...person, firstName: ' Ana ', rfc: person.rfc.toLowerCase() });
    assert.deepEqual((await read(id)).person, person);
  });
}

function sectionWriteTests3() {
  test('loan-info merges with what was saved before; financial replaces its section', async () => {
    const id = await newLead();
    await save(ops['loan-info'], id, { downPayment: 1000, term: 24 });
    await save(ops['loan-info'], id, { term: 36 });
    assert.deepEqual((await read(id)).loanInfo, { downPayment: 1000, term: 36 });
    await save(ops.financial, id);
    await save(ops.financial, id, { income: 1 });
    assert.deepEqual((await read(id)).financial, { income: 1 });
  });
}

describe('lead section writes', () => {
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());
  sectionWriteTests1();
  sectionStatementTests();
  sectionWriteTests2();
  sectionWriteTests3();
});
