import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { rfcCheckDigit } from './rfc.ts';

const rfcFor = (first12: string) => `${first12}${rfcCheckDigit(first12)}`;
/** Values distinctive enough that finding one in a table dump can only mean it is stored in clear. */
const zacarias = {
  person: {
    firstName: 'Zacarías',
    secondName: 'Eustaquio',
    lastName: 'Quintanilla',
    secondLastName: 'Villaseñor',
    rfc: rfcFor('QUVZ850307K7'),
    birthDate: '1985-03-07',
  },
  phone: '5598761234',
  email: 'zacarias.quintanilla@correo-ejemplo.mx',
  address: {
    street: 'Calle Tlacotalpan Poniente',
    number: 'Lote 4321',
    interior: 'Depto 77B',
    zipCode: '06700',
    neighborhood: 'Barrio Escondido',
  },
  financial: {
    employmentType: 'Empleado',
    startEmploymentDate: '2011-09-23',
    jobPosition: 'Jefe de Almacén Regional',
    employmentCompany: 'Tornillería Quintanilla Hermanos',
    income: 123456.78,
  },
};
const beatriz = {
  firstName: 'Beatriz',
  secondName: 'Leonor',
  lastName: 'Santibáñez',
  secondLastName: 'Olvera',
  rfc: rfcFor('SAOB920704H3'),
  birthDate: '1992-07-04',
};

let t: TestApp;

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: method as 'PUT',
    url: `${api}/leads${path}`,
    headers: { ...t.partner.headers, ...headers },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const read = (id: string) => send('GET', `/${id}`);
async function newLead(body: object = {}, headers: Record<string, string> = {}) {
  const res = await send('POST', '', body, headers);
  assert.equal(res.statusCode, 201, show(res));
  return res.json().id as string;
}
async function dump(): Promise<string> {
  const texts: string[] = [];
  for (const table of ['leads', 'lead_events', 'idempotency_keys']) {
    const { rows } = await t.database.db.query<{ row: string }>(`select row_to_json(t)::text as row from ${table} t`);
    texts.push(...rows.map((r) => r.row));
  }
  return texts.join('\n');
}

function leadStorageTests1() {
  test('personal data is never stored in clear in leads, lead_events or idempotency_keys', async () => {
    const id = await newLead(
      { autoFinB2BLeadCreatePayload: { phone: zacarias.phone, email: zacarias.email, externalAutoId: 'STOCK-PII' } },
      { 'idempotency-key': 'pii-check' },
    );
    const writes: [string, string, object][] = [
      ['PUT', 'contact-info', { phone: zacarias.phone, email: zacarias.email }],
      ['PUT', 'contact', { phone: zacarias.phone, email: zacarias.email }],
      ['PUT', 'loan-info', { phone: zacarias.phone, term: 36 }],
      ['PUT', 'address', zacarias.address],
      ['PUT', 'financial', zacarias.financial],
      ['POST', 'person', zacarias.person],
    ];
    for (const [method, path, body] of writes) {
      const res = await send(method, `/${id}/${path}`, body);
      assert.ok([200, 204].includes(res.statusCode), `${path}: ${show(res)}`);
    }
    const lead = (await read(id)).json();
    assert.deepEqual(lead.person, zacarias.person, 'the API gives the values back');
    assert.equal(lead.financial.income, 123456.78);

    const stored = await dump();
    assert.ok(stored.includes(id), 'the dump holds the lead');
    assert.ok(stored.includes('STOCK-PII'), 'non-personal data is in the dump, so the search works');
    const secrets = [
      ...Object.values(zacarias.person),
      zacarias.phone,
      zacarias.email,
      '+52' + zacarias.phone,
      zacarias.address.street,
      zacarias.address.number,
      zacarias.address.interior,
      zacarias.address.neighborhood,
      zacarias.financial.jobPosition,
      zacarias.financial.employmentCompany,
      '123456.78',
      '2011-09-23',
      'Zacarias',
      'Villasenor',
      'Tlacotalpan',
      'Tornillería',
      'zacarias.quintanilla',
      '850307',
    ];
    for (const secret of secrets) {
      for (const form of new Set([secret, secret.toLowerCase(), secret.toUpperCase()])) {
        assert.ok(!stored.includes(form), `"${form}" is stored in clear`);
      }
    }
  });

  test('the six section writes of one lead, all at once, all land', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await newLead();
      const answers = await Promise.all([
        send('PUT', `/${id}/loan-info`, { downPayment: 50000 + round, term: 48 }),
        send('PUT', `/${id}/contact-info`, { phone: zacarias.phone, email: zacarias.email }),
        send('PUT', `/${id}/address`, zacarias.address),
        send('PUT', `/${id}/auto`, { id: 371234, price: 320000 + round }),
        send('PUT', `/${id}/financial`, zacarias.financial),
        send('POST', `/${id}/person`, {
          ...zacarias.person,
          rfc: zacarias.person.rfc.slice(0, 12) + (zacarias.person.rfc[12] === '1' ? '2' : '1'),
        }),
      ]);
      assert.deepEqual(
        answers.map((r) => r.statusCode),
        [204, 204, 200, 204, 200, 200],
        answers.map(show).join('\n'),
      );
      const lead = (await read(id)).json();
      assert.equal(lead.status, 'IN_PROGRESS');
      assert.deepEqual(lead.loanInfo, { downPayment: 50000 + round, term: 48 });
      assert.deepEqual(lead.contact, { phone: zacarias.phone, email: zacarias.email });
      assert.equal(lead.address.street, zacarias.address.street);
      assert.equal(lead.vehicle.price, 320000 + round);
      assert.deepEqual(lead.financial, zacarias.financial);
      assert.equal(lead.person.lastName, 'Quintanilla');
      // The address and the person each add a warning: neither write may lose the other's.
      assert.deepEqual(
        lead.warnings.map((w: { code: string }) => w.code).sort(),
        ['NEIGHBORHOOD_NOT_IN_ZIP_CODE', 'RFC_CHECK_DIGIT_MISMATCH'],
        `round ${round}`,
      );
      const events = (await send('GET', `/${id}/events`)).json().items;
      assert.equal(events.length, 7, `round ${round}: one event per write`);
    }
  });
}

function leadStorageTests2() {
  test('concurrent loan-info writes of different fields keep both', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await newLead();
      const answers = await Promise.all([
        send('PUT', `/${id}/loan-info`, { downPayment: 1000 }),
        send('PUT', `/${id}/loan-info`, { term: 24 }),
        send('PUT', `/${id}/loan-info`, { purchaseIntention: 'WITHIN_A_MONTH' }),
      ]);
      for (const res of answers) assert.equal(res.statusCode, 204, show(res));
      assert.deepEqual(
        (await read(id)).json().loanInfo,
        { downPayment: 1000, term: 24, purchaseIntention: 'WITHIN_A_MONTH' },
        `round ${round}`,
      );
    }
  });

  test('concurrent writes of the same field leave one of the written values, never a mix', async () => {
    const id = await newLead();
    const phones = ['5500000011', '5500000022', '5500000033', '5500000044'];
    await Promise.all(
      phones.map((phone, i) => send('PUT', `/${id}/contact-info`, { phone, email: `n${i}@example.mx` })),
    );
    const contact = (await read(id)).json().contact;
    const i = phones.indexOf(contact.phone);
    assert.ok(i >= 0, JSON.stringify(contact));
    assert.equal(contact.email, `n${i}@example.mx`, 'phone and e-mail come from the same write');
  });

  test('a ciphertext moved to another lead is refused, never shown as that lead’s data', async () => {
    const a = await newLead();
    const b = await newLead();
    assert.equal((await send('POST', `/${a}/person`, zacarias.person)).statusCode, 200);
    assert.equal((await send('POST', `/${b}/person`, beatriz)).statusCode, 200);
    await t.database.db.query(
      `update leads set person_enc = case id when $1::uuid then (select person_enc from leads where id = $2::uuid)
       else (select person_enc from leads where id = $1::uuid) end where id in ($1::uuid, $2::uuid)`,
      [a, b],
    );
    for (const [id, other] of [
      [a, beatriz],
      [b, zacarias.person],
    ] as const) {
      const res = await read(id);
      assert.notEqual(res.statusCode, 200, `the swapped lead must not be served: ${show(res)}`);
      assert.equal(res.statusCode, 500, show(res));
      assert.deepEqual(Object.keys(res.json()).sort(), ['additionalData', 'code', 'message', 'requestId', 'timestamp']);
      assert.equal(res.json().code, 5000);
      assert.equal(res.json().message, 'Internal Server Error');
      assert.equal(res.json().additionalData, null);
      for (const value of [other.firstName, other.lastName, other.rfc, 'person_enc', 'decrypt', 'at ']) {
        assert.ok(!res.body.includes(value), `the answer leaks ${value}: ${res.body}`);
      }
    }
    for (const line of t.logs)
      assert.ok(!line.includes('Beatriz') && !line.includes('Zacarías'), `a log line carries a name: ${line}`);
  });

  test('a ciphertext copied into another column of the same lead is refused too', async () => {
    const id = await newLead();
    assert.equal((await send('POST', `/${id}/person`, beatriz)).statusCode, 200);
    await t.database.db.query('update leads set address_enc = person_enc where id = $1::uuid', [id]);
    const res = await read(id);
    assert.equal(res.statusCode, 500, show(res));
    assert.ok(!res.body.includes('Beatriz'), res.body);
  });
}

describe('lead storage', () => {
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());
  leadStorageTests1();
  leadStorageTests2();
});
