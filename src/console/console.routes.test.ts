import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { consoleClient } from '../../test/console-client.ts';
import { verifiedLead } from '../lender/lender-fixture.ts';
import { readyLead } from '../../test/lead-fixture.ts';

const password = 'correct horse battery';

async function operator(t: TestApp, role: 'admin' | 'analyst', email: string) {
  const res = await t.app.inject({ method: 'POST', url: '/admin/operators', headers: t.admin, payload: { name: `Ana ${role}`, role, email, password } });
  assert.equal(res.statusCode, 201, show(res));
  return res.json() as { id: string };
}

const cookieAttributes = (setCookie: string | string[] | undefined, name: string) =>
  [setCookie ?? []].flat().find((c) => c.startsWith(`${name}=`)) ?? '';

describe('operator console: sign-in, sessions and CSRF', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
    await operator(t, 'admin', 'admin@lender.mx');
    await operator(t, 'analyst', 'analyst@lender.mx');
  });
  after(() => t.close());

  test('an unauthenticated page redirects to sign-in with the page to come back to', async () => {
    const res = await consoleClient(t.app).get('/console/leads?status=PREQUALIFIED');
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, '/console/sign-in?next=%2Fconsole%2Fleads%3Fstatus%3DPREQUALIFIED');
  });

  test('the sign-in page: labelled fields, strict CSP, no caching, a CSRF cookie for /console only', async () => {
    const res = await consoleClient(t.app).get('/console/sign-in');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<html lang="es-MX">/);
    assert.match(res.body, /<label for="email">Correo electrónico<\/label>/);
    assert.match(res.body, /<label for="password">Contraseña<\/label>/);
    assert.match(res.body, /<button type="submit">Entrar<\/button>/);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /style-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.doesNotMatch(res.body, /<script|style=|<style/);
    assert.equal(res.headers['cache-control'], 'no-store');
    const csrf = cookieAttributes(res.headers['set-cookie'], 'autofin_csrf');
    assert.match(csrf, /; Path=\/console/);
    assert.match(csrf, /; HttpOnly/);
    assert.match(csrf, /; SameSite=Strict/);
    assert.match(csrf, /; Secure/);
  });

  test('a sign-in without the CSRF token is 403 and signs nobody in', async () => {
    const browser = consoleClient(t.app);
    await browser.get('/console/sign-in');
    const res = await browser.post('/console/sign-in', { _csrf: '', email: 'admin@lender.mx', password });
    assert.equal(res.statusCode, 403);
    assert.match(res.body, /Acceso denegado/);
    assert.equal(browser.cookies.has('autofin_session'), false);
  });

  test('a wrong password and an unknown e-mail both answer 401 with the form and the same message', async () => {
    for (const email of ['admin@lender.mx', 'nobody@lender.mx']) {
      const res = await consoleClient(t.app).signIn(email, 'wrong password!!');
      assert.equal(res.statusCode, 401, email);
      assert.match(res.body, /Correo o contraseña incorrectos\./);
      assert.match(res.body, /<form method="post" action="\/console\/sign-in"/);
    }
    assert.equal(t.logs.some((l) => l.includes('wrong password') || l.includes('nobody@lender.mx')), false);
  });

  test('signing in lands on the inbox (303) with a session cookie HttpOnly, SameSite=Strict, Secure, path /console', async () => {
    const browser = consoleClient(t.app);
    const res = await browser.signIn('ADMIN@lender.mx', password);
    assert.equal(res.statusCode, 303, show(res));
    assert.equal(res.headers.location, '/console/leads');
    const session = cookieAttributes(res.headers['set-cookie'], 'autofin_session');
    assert.match(session, /; Path=\/console/);
    assert.match(session, /; HttpOnly/);
    assert.match(session, /; SameSite=Strict/);
    assert.match(session, /; Secure/);
    const inbox = await browser.get('/console/leads');
    assert.equal(inbox.statusCode, 200);
    assert.match(inbox.body, /<h1>Solicitudes<\/h1>/);
    assert.match(inbox.body, /Salir/);
    assert.equal(t.logs.some((l) => l.includes(password)), false);
  });

  test('next is followed only to a relative /console/ path', async () => {
    const cases: [string, string][] = [
      ['/console/companies', '/console/companies'],
      ['//evil.example/console', '/console/leads'],
      ['https://evil.example/console/leads', '/console/leads'],
      ['/admin/leads', '/console/leads'],
      ['/console/../admin/leads', '/console/leads'],
      ['/console\\@evil.example', '/console/leads'],
    ];
    for (const [next, location] of cases) {
      const browser = consoleClient(t.app);
      await browser.get('/console/sign-in');
      const res = await browser.post('/console/sign-in', { email: 'admin@lender.mx', password, next });
      assert.equal(res.statusCode, 303, next);
      assert.equal(res.headers.location, location, next);
    }
  });

  test('"Salir" ends the session: the next page asks to sign in again', async () => {
    const browser = consoleClient(t.app);
    await browser.signIn('admin@lender.mx', password);
    const kept = new Map(browser.cookies);
    await browser.get('/console/leads');
    const out = await browser.post('/console/sign-out');
    assert.equal(out.statusCode, 303);
    assert.equal(out.headers.location, '/console/sign-in?notice=signed-out');
    // Even the old cookie, replayed, no longer opens a page.
    for (const [k, v] of kept) browser.cookies.set(k, v);
    const res = await browser.get('/console/leads');
    assert.equal(res.statusCode, 302);
  });

  test('"Cerrar todas mis sesiones" ends the operator\'s sessions in every browser', async () => {
    const first = consoleClient(t.app);
    const second = consoleClient(t.app);
    await first.signIn('analyst@lender.mx', password);
    await second.signIn('analyst@lender.mx', password);
    await first.get('/console/leads');
    const res = await first.post('/console/sessions/end-all');
    assert.equal(res.statusCode, 303);
    assert.equal((await second.get('/console/leads')).statusCode, 302);
  });

  test('deleting an operator ends their sessions', async () => {
    const gone = await operator(t, 'analyst', 'leaving@lender.mx');
    const browser = consoleClient(t.app);
    await browser.signIn('leaving@lender.mx', password);
    assert.equal((await browser.get('/console/leads')).statusCode, 200);
    const admin = consoleClient(t.app);
    await admin.signIn('admin@lender.mx', password);
    await admin.get('/console/operators');
    const res = await admin.post(`/console/operators/${gone.id}/delete`);
    assert.equal(res.statusCode, 303, show(res));
    assert.equal((await browser.get('/console/leads')).statusCode, 302);
  });

  test('an analyst reads leads and companies but gets 403 on admin pages', async () => {
    const browser = consoleClient(t.app);
    await browser.signIn('analyst@lender.mx', password);
    assert.equal((await browser.get('/console/leads')).statusCode, 200);
    const companies = await browser.get('/console/companies');
    assert.equal(companies.statusCode, 200);
    assert.doesNotMatch(companies.body, /Nueva empresa/);
    for (const page of [`/console/companies/${t.partner.companyId}`, '/console/operators', '/console/audit', '/console/webhooks', '/console/catalogs']) {
      const res = await browser.get(page);
      assert.equal(res.statusCode, 403, page);
      assert.match(res.body, /Acceso denegado/);
    }
    const res = await browser.post(`/console/companies/${t.partner.companyId}/credentials`);
    assert.equal(res.statusCode, 403);
    const credentials = await t.app.inject({ method: 'GET', url: `/admin/companies/${t.partner.companyId}/credentials`, headers: t.admin });
    assert.equal(credentials.json().items.length, 1);
  });

  test('a forged form without the CSRF token is refused (403) and changes nothing', async () => {
    const browser = consoleClient(t.app);
    await browser.signIn('admin@lender.mx', password);
    await browser.get('/console/companies');
    const before = (await t.app.inject({ method: 'GET', url: '/admin/companies', headers: t.admin })).json().items.length;
    for (const token of ['', 'forged-token']) {
      const res = await browser.post('/console/companies', { _csrf: token, name: 'Forjada SA' });
      assert.equal(res.statusCode, 403, token);
    }
    const after = (await t.app.inject({ method: 'GET', url: '/admin/companies', headers: t.admin })).json().items.length;
    assert.equal(after, before);
  });

  test('sign-in attempts are throttled per e-mail: 429 with Retry-After, before the password is checked', async () => {
    await operator(t, 'analyst', 'target@lender.mx');
    let last;
    for (let i = 0; i < 11; i++) last = await consoleClient(t.app).signIn('target@lender.mx', `wrong password ${i}`);
    assert.equal(last!.statusCode, 429);
    assert.ok(Number(last!.headers['retry-after']) > 0);
    assert.match(last!.body, /Demasiados intentos/);
    // Even the right password waits for the window to end.
    assert.equal((await consoleClient(t.app).signIn('target@lender.mx', password)).statusCode, 429);
  });

  test('an unknown console page is an HTML 404', async () => {
    const browser = consoleClient(t.app);
    await browser.signIn('admin@lender.mx', password);
    const res = await browser.get('/console/nothing-here');
    assert.equal(res.statusCode, 404);
    assert.match(res.body, /No encontrado/);
  });
});

describe('operator console: the sandbox on a loopback address', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { AUTOFIN_ENV: 'sandbox' } });
    await operator(t, 'admin', 'admin@lender.mx');
  });
  after(() => t.close());

  test('cookies are not Secure on 127.0.0.1 and localhost in the sandbox, and are elsewhere', async () => {
    for (const [host, secure] of [['127.0.0.1:8080', false], ['localhost:8080', false], ['[::1]:8080', false], ['sandbox.lender.mx', true]] as const) {
      const browser = consoleClient(t.app, host);
      const res = await browser.signIn('admin@lender.mx', password);
      assert.equal(res.statusCode, 303, host);
      const session = cookieAttributes(res.headers['set-cookie'], 'autofin_session');
      assert.equal(/; Secure/.test(session), secure, `${host}: ${session}`);
    }
  });
});

describe('operator console: pages', () => {
  let t: TestApp;
  let admin: ReturnType<typeof consoleClient>;
  before(async () => {
    // The lender's CRM resolves to a public address; deliveries then fail, which is fine here.
    t = await buildTestApp({ webhookResolver: async () => [{ address: '93.184.216.34', family: 4 }] });
    await operator(t, 'admin', 'admin@lender.mx');
    admin = consoleClient(t.app);
    await admin.signIn('admin@lender.mx', password);
  });
  after(() => t.close());

  test('the inbox filters by decision and counts leads per status', async () => {
    const { leadId: verified } = await verifiedLead(t, 'SMS');
    const other = await readyLead(t);
    const read = (await t.app.inject({ method: 'GET', url: `${api}/leads/${verified}`, headers: t.partner.headers })).json();
    const decision = read.prequalification.decision as string;
    const res = await admin.get(`/console/leads?decision=${decision}&status=&companyId=&from=&to=`);
    assert.equal(res.statusCode, 200, show(res));
    assert.match(res.body, new RegExp(`/console/leads/${verified}`));
    assert.doesNotMatch(res.body, new RegExp(`/console/leads/${other}`));
    const all = await admin.get('/console/leads');
    assert.match(all.body, new RegExp(`/console/leads/${other}`));
    assert.match(all.body, /Total <strong>2<\/strong>/);
    const bad = await admin.get('/console/leads?status=NOPE');
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /Datos no válidos/);
  });

  test('a lead page shows the consent receipt and the explanation, has no personal data in its title, and is audited', async () => {
    const { leadId, requestId } = await verifiedLead(t, 'EMAIL');
    const res = await admin.get(`/console/leads/${leadId}`);
    assert.equal(res.statusCode, 200, show(res));
    assert.match(res.body, /<title>Solicitud [0-9a-f]{8} · autofin<\/title>/);
    assert.match(res.body, /<h2 id="consentimiento">Consentimiento<\/h2>/);
    assert.match(res.body, new RegExp(requestId));
    assert.match(res.body, /Explicación de la decisión/);
    assert.match(res.body, /Versión de las reglas/);
    assert.match(res.body, /Buró de crédito/);
    const audit = (await t.app.inject({ method: 'GET', url: '/admin/audit', headers: t.admin })).json();
    const record = audit.items.find((r: { leadId: string }) => r.leadId === leadId);
    assert.ok(record, 'the lead read is audited');
    assert.equal(record.action, 'lead.read');
    assert.notEqual(record.operatorId, 'admin-token');
    const missing = await admin.get('/console/leads/00000000-0000-4000-8000-000000000000');
    assert.equal(missing.statusCode, 404);
  });

  test('a credential is created with its secret shown once, then revoked after a confirmation page', async () => {
    const companyPage = await admin.get(`/console/companies/${t.partner.companyId}`);
    assert.equal(companyPage.statusCode, 200);
    const created = await admin.post(`/console/companies/${t.partner.companyId}/credentials`);
    assert.equal(created.statusCode, 200, show(created));
    const key = /<code>(ck_[^<]+)<\/code><\/dd><dt>consumer_secret<\/dt><dd><code>(cs_[^<]+)<\/code>/.exec(created.body);
    assert.ok(key, 'the secret is shown');
    const token = await t.app.inject({ method: 'POST', url: '/auth/token', payload: { consumer_key: key[1], consumer_secret: key[2] } });
    assert.equal(token.statusCode, 200);
    const again = await admin.get(`/console/companies/${t.partner.companyId}`);
    assert.doesNotMatch(again.body, new RegExp(key[2]));
    const confirm = await admin.get(`/console/companies/${t.partner.companyId}/credentials/${key[1]}/revoke`);
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /¿Revocar la credencial/);
    const revoked = await admin.post(`/console/companies/${t.partner.companyId}/credentials/${key[1]}/revoke`);
    assert.equal(revoked.statusCode, 303);
    assert.equal(revoked.headers.location, `/console/companies/${t.partner.companyId}?notice=credential-revoked`);
    const refused = await t.app.inject({ method: 'POST', url: '/auth/token', payload: { consumer_key: key[1], consumer_secret: key[2] } });
    assert.equal(refused.statusCode, 401);
  });

  test('a delivery of the lender\'s webhook endpoint is redelivered', async () => {
    const page = await admin.get('/console/webhooks');
    assert.equal(page.statusCode, 200);
    const created = await admin.post('/console/webhooks', { url: 'https://crm.lender.example/hooks' });
    assert.equal(created.statusCode, 200, show(created));
    assert.match(created.body, /Secreto de firma/);
    const endpointId = /\/console\/webhooks\/([0-9a-f-]{36})\/test/.exec(created.body)![1];
    const test = await admin.post(`/console/webhooks/${endpointId}/test`);
    assert.equal(test.statusCode, 303);
    const detail = await admin.get(`/console/webhooks/${endpointId}`);
    const deliveryId = /deliveries\/([0-9a-f-]{36})\/redeliver/.exec(detail.body)?.[1];
    assert.ok(deliveryId, 'the delivery is listed');
    const res = await admin.post(`/console/webhooks/${endpointId}/deliveries/${deliveryId}/redeliver`);
    assert.equal(res.statusCode, 303, show(res));
    assert.equal(res.headers.location, `/console/webhooks/${endpointId}?notice=redelivery-queued`);
    const bad = await admin.post('/console/webhooks', { url: 'ftp://crm.lender.example/hooks' });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /url/);
  });

  test('a malformed catalog file is refused with its line and the catalog in force stays', async () => {
    const page = await admin.get('/console/catalogs');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Vehículos/);
    const boundary = 'formboundary1234';
    const body = [
      `--${boundary}`, 'Content-Disposition: form-data; name="_csrf"', '', admin.csrf(),
      `--${boundary}`, 'Content-Disposition: form-data; name="kind"', '', 'vehicles',
      `--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="v.csv"', 'Content-Type: text/csv', '', 'not,a,catalog',
      `--${boundary}--`, '',
    ].join('\r\n');
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await t.app.inject({
      method: 'POST', url: '/console/catalogs/import', payload: body,
      headers: { host: 'console.example.mx', cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    assert.equal(res.statusCode, 400, show(res));
    assert.match(res.body, /Archivo rechazado/);
    const brands = await t.app.inject({ method: 'GET', url: `${api}/catalogs/years/2020/brands`, headers: t.partner.headers });
    assert.equal(brands.statusCode, 200);
  });

  test('operators are created with a key shown once; the audit page lists reads', async () => {
    const page = await admin.get('/console/operators');
    assert.equal(page.statusCode, 200);
    const short = await admin.post('/console/operators', { name: 'Luis', email: 'luis@lender.mx', role: 'analyst', password: 'short' });
    assert.equal(short.statusCode, 400);
    assert.match(short.body, /password/);
    const created = await admin.post('/console/operators', { name: 'Luis', email: 'luis@lender.mx', role: 'analyst', password });
    assert.equal(created.statusCode, 200, show(created));
    assert.match(created.body, /op_[A-Za-z0-9_-]+/);
    const luis = consoleClient(t.app);
    assert.equal((await luis.signIn('luis@lender.mx', password)).statusCode, 303);
    const audit = await admin.get('/console/audit');
    assert.equal(audit.statusCode, 200);
    assert.match(audit.body, /Lectura de solicitud/);
  });
});
