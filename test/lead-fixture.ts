/**
 * A lead ready for PIN verification, built through the HTTP API like a partner would: contact,
 * address, vehicle with its price, loan info, financial and person data (a sandbox RFC born
 * 1985-04-12, see docs/prequalification.md). Any section can be left out to test what needs it.
 */
import assert from 'node:assert/strict';
import { api, show, type Partner, type TestApp } from './helper.ts';

/** Sandbox bureau RFCs (docs/prequalification.md), all born 1985-04-12: the homoclave picks the profile. */
export const sandboxRfc = {
  A1: 'SAND850412A16',
  B1: 'SAND850412B13',
  C1: 'SAND850412C10',
  D1: 'SAND850412D18',
  N1: 'SAND850412N10',
  E1: 'SAND850412E15',
  T1: 'SAND850412T11',
} as const;

export const sandboxBirthDate = '1985-04-12';
export const versionId = 371234;

export const leadDefaults = {
  phone: '5512345678',
  email: 'ana.lopez.prueba@example.com',
  person: { firstName: 'Anacleta', secondName: 'Maricruz', lastName: 'Zubizarreta', secondLastName: 'Quiñones' },
  address: {
    street: 'Av. Álvaro Obregón',
    number: '120',
    interior: '4B',
    zipCode: '06700',
    neighborhood: 'Roma Norte',
  },
  price: 340_000,
  downPayment: 100_000,
  term: 48,
  income: 60_000,
  employment: { employmentType: 'Empleado', startDate: { year: 2015, month: 3 } },
} as const;

export interface ReadyLeadOptions {
  rfc?: string;
  downPayment?: number;
  price?: number;
  term?: number;
  income?: number;
  employment?: {
    employmentType: 'Empleado' | 'Independiente' | 'Jubilado';
    startDate: { year: number; month: number };
  };
  phone?: string;
  email?: string;
  /** false leaves the section out. */
  contact?: boolean;
  address?: boolean;
  person?: boolean;
  financial?: boolean;
  partner?: Partner;
}

async function call(
  t: TestApp,
  partner: Partner,
  method: 'POST' | 'PUT',
  url: string,
  payload: object,
  expected: number,
) {
  const res = await t.app.inject({ method, url: `${api}${url}`, headers: partner.headers, payload });
  assert.equal(res.statusCode, expected, `${method} ${url}: ${show(res)}`);
  return res;
}

/** Creates the lead and saves each wanted section; returns the lead id. */
export async function readyLead(t: TestApp, options: ReadyLeadOptions = {}): Promise<string> {
  const partner = options.partner ?? t.partner;
  const created = await call(t, partner, 'POST', '/leads', {}, 201);
  const id = created.json().id as string;
  const lead = `/leads/${id}`;
  if (options.contact !== false) {
    await call(
      t,
      partner,
      'PUT',
      `${lead}/contact-info`,
      { phone: options.phone ?? leadDefaults.phone, email: options.email ?? leadDefaults.email },
      204,
    );
  }
  await call(
    t,
    partner,
    'PUT',
    `${lead}/loan-info`,
    {
      downPayment: options.downPayment ?? leadDefaults.downPayment,
      term: options.term ?? leadDefaults.term,
      purchaseIntention: 'WITHIN_A_MONTH',
    },
    204,
  );
  if (options.address !== false) await call(t, partner, 'PUT', `${lead}/address`, leadDefaults.address, 200);
  await call(t, partner, 'PUT', `${lead}/auto`, { id: versionId, price: options.price ?? leadDefaults.price }, 204);
  if (options.financial !== false) {
    await call(
      t,
      partner,
      'PUT',
      `${lead}/financial`,
      {
        ...(options.employment ?? leadDefaults.employment),
        jobTitle: 'Analista',
        income: options.income ?? leadDefaults.income,
      },
      200,
    );
  }
  if (options.person !== false) {
    await call(
      t,
      partner,
      'POST',
      `${lead}/person`,
      { ...leadDefaults.person, rfc: options.rfc ?? sandboxRfc.A1, birthDate: sandboxBirthDate },
      200,
    );
  }
  return id;
}

/** Saves the person of a lead left without one (the default name, the given RFC). */
export async function savePerson(
  t: TestApp,
  leadId: string,
  rfc: string = sandboxRfc.A1,
  partner: Partner = t.partner,
) {
  return call(
    t,
    partner,
    'POST',
    `/leads/${leadId}/person`,
    { ...leadDefaults.person, rfc, birthDate: sandboxBirthDate },
    200,
  );
}

/** The only 6-digit number of a PIN message (an SMS body, an e-mail text, or a string). */
export function pinFrom(message: string | { body: string } | { text: string }): string {
  const text = typeof message === 'string' ? message : 'body' in message ? message.body : message.text;
  const sixDigits = (text.match(/\d+/g) ?? []).filter((run) => run.length === 6);
  assert.equal(sixDigits.length, 1, `expected exactly one 6-digit number in: ${text}`);
  return sixDigits[0];
}

type Response = Awaited<ReturnType<TestApp['app']['inject']>>;

/** The PIN operations and the read-back of a lead, as one partner. */
export function pinApi(t: TestApp, partner: Partner = t.partner) {
  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url: `${api}${url}`, headers: partner.headers, ...(payload ? { payload } : {}) });
  return {
    send: (leadId: string, channel: string = 'SMS') => inject('POST', `/leads/${leadId}/pin`, { channel }),
    confirm: (leadId: string, pin: string, pinConfirmation?: string) =>
      inject(
        'POST',
        `/leads/${leadId}/pin/confirmation`,
        pinConfirmation === undefined ? { pin } : { pin, pinConfirmation },
      ),
    put: (leadId: string, section: string, payload: object) => inject('PUT', `/leads/${leadId}/${section}`, payload),
    /** GET /leads/{id}, asserted 200. */
    async read(leadId: string) {
      const res = await inject('GET', `/leads/${leadId}`);
      assert.equal(res.statusCode, 200, show(res));
      return res.json();
    },
    /** GET /leads/{id}/events, asserted 200. */
    async events(leadId: string) {
      const res = await inject('GET', `/leads/${leadId}/events`);
      assert.equal(res.statusCode, 200, show(res));
      return res.json() as { items: { type: string; fields: string[] }[] };
    },
  };
}

/** An ErrorResponse with this status, code and message (and `additionalData.reason` when given). */
export function assertError(res: Response, status: number, code: number, message: string, reason?: string) {
  assert.equal(res.statusCode, status, show(res));
  assert.match(String(res.headers['content-type']), /^application\/json/, show(res));
  const body = res.json();
  assert.equal(body.code, code, show(res));
  assert.equal(body.message, message, show(res));
  assert.equal(body.requestId, res.headers['x-request-id'], show(res));
  assert.ok(!Number.isNaN(Date.parse(body.timestamp)), show(res));
  if (reason !== undefined) assert.equal(body.additionalData?.reason, reason, show(res));
  return body;
}

/** 204 with an empty body. */
export function assertNoContent(res: Response) {
  assert.equal(res.statusCode, 204, show(res));
  assert.equal(res.body, '', show(res));
}
