/**
 * No input answers a 500: empty and non-object bodies, control characters, and the order of the
 * answers (authentication, schema, the lead's 404, then checks against data), with every failing
 * field listed at once. A refused request changes nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { assertError, readyLead, sandboxRfc } from '../../test/lead-fixture.ts';

let t: TestApp;
let leadId: string;
let foreignLeadId: string;

describe('lead input errors', () => {
  before(async () => {
    t = await buildTestApp();
    leadId = await readyLead(t, { person: false });
    const other = await t.newPartner();
    foreignLeadId = (await t.app.inject({ method: 'POST', url: `${api}/leads`, headers: other.headers })).json().id;
  });
  after(() => t.close());

  type Method = 'PUT' | 'POST';
  /** Every lead route taking a body, with its invalid-input code. */
  const bodyRoutes: { method: Method; path: string; code: number }[] = [
    { method: 'PUT', path: 'loan-info', code: 40015 },
    { method: 'PUT', path: 'contact-info', code: 40015 },
    { method: 'PUT', path: 'contact', code: 400 },
    { method: 'PUT', path: 'address', code: 40015 },
    { method: 'PUT', path: 'auto', code: 40015 },
    { method: 'PUT', path: 'financial', code: 40015 },
    { method: 'POST', path: 'person', code: 40015 },
    { method: 'POST', path: 'pin', code: 4003 },
    { method: 'POST', path: 'pin/confirmation', code: 4003 },
  ];

  const send = (method: string, url: string, payload?: string | object, headers = t.partner.headers) =>
    t.app.inject({ method: method as Method, url, headers, payload });
  const readLead = async (id = leadId) => (await send('GET', `${api}/leads/${id}`)).body;
  const fieldsOf = (res: { json(): { additionalData: { errors: { field: string }[] } } }) =>
    res
      .json()
      .additionalData.errors.map((e) => e.field)
      .sort();

  describe('bodies that are not objects, or carry nothing', () => {
    test('null, [], "x" and 1 answer 400 on every body route and change nothing', async () => {
      const before = await readLead();
      for (const route of bodyRoutes) {
        for (const raw of ['null', '[]', '"x"', '1']) {
          const res = await send(route.method, `${api}/leads/${leadId}/${route.path}`, raw);
          const body = assertError(res, 400, route.code, 'Bad Request');
          assert.deepEqual(
            body.additionalData.errors,
            [{ field: 'body', errorDetail: 'must be a JSON object' }],
            `${route.path} ${raw}: ${show(res)}`,
          );
        }
      }
      for (const [method, url, code] of [
        ['POST', `${api}/leads`, 40015],
        ['POST', '/auth/token', 40015],
        ['POST', '/admin/companies', 40015],
      ] as const) {
        for (const raw of ['null', '[]', '"x"', '1']) {
          const headers = url.startsWith('/admin')
            ? { ...t.admin, 'content-type': 'application/json' }
            : t.partner.headers;
          assertError(await send(method, url, raw, headers), 400, code, 'Bad Request');
        }
      }
      assert.equal(await readLead(), before);
    });

    test(
      '{} and no body on the all-optional sections answer ' + '400 "nothing to save", before the lead is looked up',
      async () => {
        const before = await readLead();
        for (const route of bodyRoutes.filter((r) => ['loan-info', 'contact', 'financial'].includes(r.path))) {
          for (const payload of ['{}', undefined]) {
            const res = await send(route.method, `${api}/leads/${leadId}/${route.path}`, payload);
            const body = assertError(res, 400, route.code, 'Bad Request');
            assert.deepEqual(
              body.additionalData.errors,
              [{ field: 'body', errorDetail: 'has no field to save' }],
              show(res),
            );
            for (const other of [randomUUID(), foreignLeadId]) {
              // The document declares these payloads with minProperties 1: the schema refuses them first.
              assertError(
                await send(route.method, `${api}/leads/${other}/${route.path}`, payload),
                400,
                route.code,
                'Bad Request',
              );
            }
          }
        }
        assert.equal(await readLead(), before);
      },
    );

    test('{} on the sections with required fields lists each of them', async () => {
      const res = await send('PUT', `${api}/leads/${leadId}/address`, '{}');
      assertError(res, 400, 40015, 'Bad Request');
      assert.deepEqual(fieldsOf(res), ['neighborhood', 'number', 'street', 'zipCode']);
    });
  });

  const nul = 'a\u0000b';
  const cases: {
    name: string;
    method: string;
    url: () => string;
    payload: object;
    field: string;
    code?: number;
    admin?: boolean;
  }[] = [
    {
      name: 'externalAutoId',
      method: 'POST',
      url: () => `${api}/leads`,
      payload: { autoFinB2BLeadCreatePayload: { externalAutoId: nul } },
      field: 'autoFinB2BLeadCreatePayload.externalAutoId',
    },
    {
      name: 'affiliate.user_type',
      method: 'POST',
      url: () => `${api}/leads`,
      payload: { affiliate: { user_type: nul } },
      field: 'affiliate.user_type',
    },
    {
      name: 'street',
      method: 'PUT',
      url: () => `${api}/leads/${leadId}/address`,
      payload: { street: nul, number: '1', zipCode: '06700', neighborhood: 'Roma Norte' },
      field: 'street',
    },
    {
      name: 'jobPosition',
      method: 'PUT',
      url: () => `${api}/leads/${leadId}/financial`,
      payload: { jobPosition: nul },
      field: 'jobPosition',
    },
    {
      name: 'employmentCompany',
      method: 'PUT',
      url: () => `${api}/leads/${leadId}/financial`,
      payload: { employmentCompany: 'x\u0007' },
      field: 'employmentCompany',
    },
    {
      name: 'firstName',
      method: 'POST',
      url: () => `${api}/leads/${leadId}/person`,
      payload: {
        firstName: nul,
        secondName: '',
        lastName: 'López',
        secondLastName: '',
        rfc: sandboxRfc.A1,
        birthDate: '1985-04-12',
      },
      field: 'firstName',
    },
    {
      name: 'pinConfirmation',
      method: 'POST',
      url: () => `${api}/leads/${leadId}/pin/confirmation`,
      payload: { pin: '123456', pinConfirmation: '12\u00003' },
      field: 'pinConfirmation',
      code: 4003,
    },
    {
      name: 'company name',
      method: 'POST',
      url: () => '/admin/companies',
      payload: { name: nul },
      field: 'name',
      admin: true,
    },
    {
      name: 'affiliate type',
      method: 'POST',
      url: () => `/admin/companies/${t.partner.companyId}/affiliates`,
      payload: { user_type: 'SELLER\u0000' },
      field: 'user_type',
      admin: true,
    },
    {
      name: 'an unknown field’s name',
      method: 'PUT',
      url: () => `${api}/leads/${leadId}/loan-info`,
      payload: { ['te\u0000rm']: 1 },
      field: 'te\u0000rm',
    },
  ];

  function controlCharacterTests() {
    for (const c of cases) {
      test(`a NUL or control character in ${c.name} is 400 naming the field`, async () => {
        const before = await readLead();
        const headers = c.admin ? { ...t.admin, 'content-type': 'application/json' } : t.partner.headers;
        const res = await send(c.method, c.url(), c.payload, headers);
        assertError(res, 400, c.code ?? 40015, 'Bad Request');
        assert.ok(fieldsOf(res).includes(c.field), show(res));
        assert.equal(await readLead(), before);
      });
    }

    test('the token endpoint answers a NUL as any malformed request: 400 / 40015', async () => {
      const res = await send(
        'POST',
        '/auth/token',
        { consumer_key: 'ck_\u0000', consumer_secret: 'x' },
        { 'content-type': 'application/json' },
      );
      assertError(res, 400, 40015, 'Bad Request');
      assert.deepEqual(fieldsOf(res), ['consumer_key']);
    });

    test('a NUL in a path parameter is 400, not a database error', async () => {
      const res = await send('DELETE', '/admin/credentials/abc%00def', undefined, t.admin);
      assertError(res, 400, 40015, 'Bad Request');
      assert.deepEqual(fieldsOf(res), ['consumer_key']);
    });
  }

  describe('control characters are refused at validation', () => {
    controlCharacterTests();
  });

  describe('cursors and dates of the lead list', () => {
    const cursorOf = (text: string) => Buffer.from(text).toString('base64url');
    const bad: [string, string][] = [
      ['cursor', cursorOf(`2026-01-01T00:00:00.000Z|${'0'.repeat(8)}-${'-'.repeat(27)}`)],
      ['cursor', cursorOf('2026-01-01T00:00:00.000Z|0000000g-0000-0000-0000-000000000000')],
      ['cursor', cursorOf(`-200000-01-01T00:00:00.000Z|${randomUUID()}`)],
      ['cursor', 'not-a-cursor'],
      ['createdFrom', '0000-01-01'],
      ['createdTo', '%2B275760-09-13'],
      ['createdFrom', '2026-13-01'],
    ];
    for (const [field, value] of bad) {
      test(`${field}=${value} is 400 / 40015 naming ${field}`, async () => {
        const res = await send('GET', `${api}/leads?${field}=${value}`);
        assertError(res, 400, 40015, 'Bad Request');
        assert.deepEqual(fieldsOf(res), [field]);
      });
    }

    test('every bad filter is listed in one answer', async () => {
      const checks = await send('GET', `${api}/leads?createdFrom=0000-01-01&createdTo=x&cursor=x`);
      assertError(checks, 400, 40015, 'Bad Request');
      assert.deepEqual(fieldsOf(checks), ['createdFrom', 'createdTo', 'cursor']);
      const schema = await send('GET', `${api}/leads?limit=0&status=NOPE&cursor=x`);
      assertError(schema, 400, 40015, 'Bad Request');
      assert.deepEqual(fieldsOf(schema), ['cursor', 'limit', 'status']);
    });
  });

  describe('the order of the answers: schema, then the lead, then checks against data', () => {
    // Bodies that pass the schema but fail a check against data (catalogs, dates, the RFC).
    const dataFailures: { method: Method; path: string; payload: object }[] = [
      {
        method: 'PUT',
        path: 'address',
        payload: { street: 'Calle', number: '1', zipCode: '99999', neighborhood: 'X' },
      },
      { method: 'PUT', path: 'auto', payload: { id: 1, price: 100 } },
      { method: 'PUT', path: 'financial', payload: { startEmploymentDate: '2999-01-01' } },
      {
        method: 'POST',
        path: 'person',
        payload: {
          firstName: 'A',
          secondName: '',
          lastName: 'B',
          secondLastName: '',
          rfc: 'XAXX010101000',
          birthDate: '1985-04-12',
        },
      },
      { method: 'PUT', path: 'loan-info', payload: { term: 12 } },
      { method: 'PUT', path: 'contact-info', payload: { phone: '5512345678', email: 'a@example.com' } },
      { method: 'PUT', path: 'contact', payload: { phone: '5512345678' } },
      { method: 'POST', path: 'pin', payload: { channel: 'SMS' } },
      { method: 'POST', path: 'pin/confirmation', payload: { pin: '123456', pinConfirmation: '654321' } },
    ];
    for (const route of dataFailures) {
      test(
        `${route.method} …/${route.path} on an unknown or ` + `foreign lead is 404 / 4040 before any other check`,
        async () => {
          for (const id of [randomUUID(), foreignLeadId, foreignLeadId.toUpperCase()]) {
            const res = await send(route.method, `${api}/leads/${id}/${route.path}`, route.payload);
            assertError(res, 404, 4040, 'Lead not found');
          }
        },
      );
    }

    test('the reads of an unknown or foreign lead are 404 / 4040', async () => {
      for (const id of [randomUUID(), foreignLeadId]) {
        for (const suffix of ['', '/events'])
          assertError(await send('GET', `${api}/leads/${id}${suffix}`), 404, 4040, 'Lead not found');
      }
    });

    test('on an existing lead the same bodies fail their data checks', async () => {
      for (const route of dataFailures.slice(0, 4)) {
        assertError(
          await send(route.method, `${api}/leads/${leadId}/${route.path}`, route.payload),
          400,
          40015,
          'Bad Request',
        );
      }
    });

    test('a schema failure is answered before the lead: 400 even for an unknown lead', async () => {
      const res = await send('PUT', `${api}/leads/${randomUUID()}/auto`, { id: 'x' });
      assertError(res, 400, 40015, 'Bad Request');
    });
  });

  describe('every failing field in one answer', () => {
    test('vehicle: a price the schema refuses and an id the catalog lacks', async () => {
      const res = await send('PUT', `${api}/leads/${leadId}/auto`, { id: 1, price: -5 });
      assertError(res, 400, 40015, 'Bad Request');
      assert.deepEqual(fieldsOf(res), ['id', 'price']);
    });

    test('person: a birth date that is not a date, a malformed RFC and a missing last name', async () => {
      const res = await send('POST', `${api}/leads/${leadId}/person`, {
        firstName: 'A',
        secondName: '',
        secondLastName: '',
        rfc: 'NOPE',
        birthDate: '1985-02-30',
      });
      assertError(res, 400, 40015, 'Bad Request');
      assert.deepEqual(fieldsOf(res), ['birthDate', 'lastName', 'rfc']);
    });

    test('address: a ZIP code not in the catalog and a blank street, with an unknown field', async () => {
      const res = await send('PUT', `${api}/leads/${leadId}/address`, {
        street: '  ',
        number: '1',
        zipCode: '99999',
        neighborhood: 'X',
        floor: 2,
      });
      assertError(res, 400, 40015, 'Bad Request');
      assert.deepEqual(fieldsOf(res), ['floor', 'street', 'zipCode']);
    });

    test('the path and the body together', async () => {
      const res = await send('PUT', `${api}/leads/not-a-uuid/auto`, { id: 'x' });
      assertError(res, 400, 40015, 'Bad Request');
      assert.deepEqual(fieldsOf(res), ['id', 'leadId']);
    });

    test('an enum failure names the allowed values', async () => {
      const res = await send('PUT', `${api}/leads/${leadId}/loan-info`, { purchaseIntention: 'SOON' });
      const body = assertError(res, 400, 40015, 'Bad Request');
      assert.deepEqual(body.additionalData.errors, [
        {
          field: 'purchaseIntention',
          errorDetail: 'must be one of: LESS_THAN_TWO_WEEKS, WITHIN_A_MONTH, JUST_SIMULATE',
        },
      ]);
      const pin = await send('POST', `${api}/leads/${leadId}/pin`, { channel: 'FAX' });
      assert.deepEqual(assertError(pin, 400, 4003, 'Bad Request').additionalData.errors, [
        { field: 'channel', errorDetail: 'must be one of: SMS, EMAIL' },
      ]);
    });
  });
});
