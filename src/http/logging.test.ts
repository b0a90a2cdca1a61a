import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import pino from 'pino';
import type { InjectOptions } from 'fastify';
import { adminToken, api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { loggerOptions } from '../shared/index.ts';

const person = {
  firstName: 'Guadalupe',
  secondName: 'Itzel',
  lastName: 'Quetzalcoatl',
  secondLastName: 'Xochimilca',
  rfc: 'QUXG850312QZ7',
  birthDate: '1985-03-12',
};
const contact = { phone: '5587619934', email: 'guadalupe.quetzal@correo-privado.mx' };

let t: TestApp;

/** Sends one request with its own X-Request-Id and returns the log lines it wrote. */
async function logged(request: InjectOptions & { headers?: Record<string, string> }) {
  const requestId = `log-${randomUUID()}`;
  const first = t.logs.length;
  const res = await t.app.inject({ ...request, headers: { ...(request.headers ?? {}), 'x-request-id': requestId } });
  await tick();
  return { res, requestId, lines: t.logs.slice(first) };
}

function assertClean(lines: string[], secrets: string[]) {
  for (const secret of secrets) {
    const leaking = lines.find((line) => line.includes(secret));
    assert.equal(leaking, undefined, `"${secret}" is in the log: ${leaking}`);
  }
}

function assertTagged(lines: string[], requestId: string) {
  assert.ok(lines.length >= 1, `the request wrote its log lines: ${lines.join('\n')}`);
  for (const line of lines) assert.equal(JSON.parse(line).requestId, requestId, line);
}

function requestLogTests1() {
  test('a token request logs neither the secret, the token nor the credentials', async () => {
    const { res, requestId, lines } = await logged({
      method: 'POST',
      url: '/auth/token',
      payload: { consumer_key: t.partner.consumerKey, consumer_secret: t.partner.consumerSecret },
    });
    assert.equal(res.statusCode, 200, show(res));
    assertClean(lines, [t.partner.consumerSecret, res.json().access_token]);
    assertTagged(lines, requestId);
  });

  test('a refused token request logs neither the guessed secret nor the partner token sent with it', async () => {
    const { res, requestId, lines } = await logged({
      method: 'POST',
      url: '/auth/token',
      headers: { authorization: `Bearer ${t.partner.token}` },
      payload: { consumer_key: t.partner.consumerKey, consumer_secret: 'cs_guessed-secret-value-7781' },
    });
    assert.equal(res.statusCode, 401, show(res));
    assertClean(lines, ['cs_guessed-secret-value-7781', t.partner.token]);
    assertTagged(lines, requestId);
  });

  test('admin calls log neither the admin token nor the credential secret they create', async () => {
    const credential = await logged({
      method: 'POST',
      url: `/admin/companies/${t.partner.companyId}/credentials`,
      headers: t.admin,
    });
    assert.equal(credential.res.statusCode, 201, show(credential.res));
    const affiliate = await logged({
      method: 'POST',
      url: `/admin/companies/${t.partner.companyId}/affiliates`,
      headers: t.admin,
      payload: { user_type: 'Gerente Quetzalcoatl' },
    });
    assert.equal(affiliate.res.statusCode, 201, show(affiliate.res));
    assertClean([...credential.lines, ...affiliate.lines], [adminToken, credential.res.json().consumer_secret]);
    assertTagged(credential.lines, credential.requestId);
    assertTagged(affiliate.lines, affiliate.requestId);
  });

  test('a token sent in the query string is refused and never reaches the log', async () => {
    const sent = [
      { url: `/admin/operators?access_token=${adminToken}`, secret: adminToken },
      { url: `${api}/leads?limit=2&access_token=${t.partner.token}`, secret: t.partner.token },
      { url: `${api}/leads?${t.partner.token}`, secret: t.partner.token },
      { url: `/admin/leads?q=${contact.email}&status=VERIFIED`, secret: contact.email },
    ];
    for (const { url, secret } of sent) {
      const { res, lines, requestId } = await logged({ method: 'GET', url });
      assert.equal(res.statusCode, 401, show(res));
      assertClean(lines, [secret]);
      assertTagged(lines, requestId);
      assert.ok(
        lines.some((line) => JSON.parse(line).url?.startsWith(url.slice(0, url.indexOf('?')))),
        'the path is logged',
      );
    }
  });

  test('a secret sent as a bare query key, a key with a value or a filter’s value never reaches the log', async () => {
    const secret32 = 'Zq8xR2mWt5vK1nB7cY4pL0sD3fH6jG9a'; // 32 characters: a short ADMIN_TOKEN
    const secret40 = 'Cursorlike_0123456789abcdefABCDEF-xyz_99'; // 40 characters, base64url-like
    const urls = [
      `/admin/leads?${secret32}`,
      `/admin/leads?${secret32}=1`,
      `/admin/leads?cursor=${secret40}`,
      `/admin/leads?status=${secret32}&createdFrom=${secret32}`,
    ];
    for (const url of urls) {
      const { res, lines, requestId } = await logged({ method: 'GET', url, headers: t.admin });
      assert.ok(res.statusCode === 200 || res.statusCode === 400, show(res));
      assertClean(lines, [secret32, secret40]);
      assertTagged(lines, requestId);
    }
  });
}

function requestLogTests2() {
  test('personal data sent to partner and admin routes, accepted or refused, never reaches the log', async () => {
    const leadId = randomUUID();
    const requests = [
      { method: 'POST' as const, url: `${api}/leads/${leadId}/person`, headers: t.partner.headers, payload: person },
      { method: 'PUT' as const, url: `${api}/leads/${leadId}/contact`, headers: t.partner.headers, payload: contact },
      {
        method: 'PUT' as const,
        url: `${api}/leads/${leadId}/financial`,
        headers: t.partner.headers,
        payload: { income: 48213.77 },
      },
      {
        method: 'POST' as const,
        url: `${api}/leads`,
        headers: t.partner.headers,
        payload: { autoFinB2BLeadCreatePayload: contact },
      },
      {
        method: 'POST' as const,
        url: '/admin/companies',
        headers: t.admin,
        payload: { name: 'x', ...person, ...contact },
      },
      {
        method: 'POST' as const,
        url: `${api}/leads/${leadId}/person`,
        headers: { ...t.partner.headers, 'content-type': 'application/json' },
        payload: `{"rfc":"${person.rfc}","firstName":"${person.firstName}",`,
      },
    ];
    for (const request of requests) {
      const { lines, requestId } = await logged(request);
      assertClean(lines, [...Object.values(person), ...Object.values(contact), '48213.77', t.partner.token]);
      assertTagged(lines, requestId);
    }
    assertClean(t.logs, [...Object.values(person), ...Object.values(contact), adminToken, t.partner.consumerSecret]);
  });
}

describe('request logs never carry people or secrets', () => {
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());
  requestLogTests1();
  requestLogTests2();
});

describe('the logger redacts personal fields wherever they sit', () => {
  function capture() {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    return { logger: pino(loggerOptions('info'), stream), lines };
  }

  const values = {
    phone: '5512345678',
    rfc: 'LOGA900215A16',
    pin: '493817',
    email: 'ana.lopez@example.com',
    income: 35123.45,
  };
  const nestings: [string, (fields: Record<string, unknown>) => Record<string, unknown>][] = [
    ['at the top level', (f) => f],
    ['one level down', (f) => ({ lead: f })],
    ['two levels down', (f) => ({ lead: { person: f } })],
    ['three levels down', (f) => ({ request: { lead: { person: f } } })],
    ['inside an array', (f) => ({ items: [f] })],
  ];

  for (const [where, wrap] of nestings) {
    test(`phone, rfc, pin, email and income are redacted ${where}`, () => {
      const { logger, lines } = capture();
      logger.info(wrap({ ...values, leadId: 'kept-id' }), 'lead saved');
      assert.equal(lines.length, 1);
      for (const value of Object.values(values))
        assert.ok(!lines[0].includes(String(value)), `${value} leaked: ${lines[0]}`);
      assert.equal(lines[0].match(/\[REDACTED\]/g)?.length, 5, lines[0]);
      assert.match(lines[0], /"leadId":"kept-id"/, 'ids are kept');
    });
  }

  test('names, birth date, address, secrets and tokens are redacted too', () => {
    const { logger, lines } = capture();
    const fields = {
      ...person,
      street: 'Calle Tlaxcoaque 12',
      neighborhood: 'Roma Norte',
      consumer_secret: 'cs_abc123secret',
      access_token: 'afn1.payload.sig',
      authorization: 'Bearer afn1.payload.sig',
      pinConfirmation: '493817',
    };
    logger.info({ lead: fields }, 'saved');
    for (const value of Object.values(fields)) assert.ok(!lines[0].includes(value), `${value} leaked: ${lines[0]}`);
  });
});
