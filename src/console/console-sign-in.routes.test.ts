import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { consoleClient } from '../../test/console-client.ts';
import { signInLimits } from './console-sign-in.ts';

const password = 'correct horse battery';

async function operator(t: TestApp, role: 'admin' | 'analyst' | 'officer', email: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/operators',
    headers: t.admin,
    payload: { name: `Ana ${role}`, role, email, password },
  });
  assert.equal(res.statusCode, 201, show(res));
  return res.json() as { id: string };
}

const cookieAttributes = (setCookie: string | string[] | undefined, name: string) =>
  [setCookie ?? []].flat().find((c) => c.startsWith(`${name}=`)) ?? '';

let t: TestApp;

describe('operator console: sign-in, sessions and CSRF', () => {
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    await operator(t, 'admin', 'admin@lender.mx');
    await operator(t, 'analyst', 'analyst@lender.mx');
  });
  after(() => t.close());

  signInTests();
  sessionTests();
  guardTests();
});

/** The sign-in page and signing in. */
function signInTests(): void {
  test('an unauthenticated page redirects to sign-in with the page to come back to', async () => {
    const res = await consoleClient(t.app).get('/console/leads?status=PREQUALIFIED');
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, '/console/sign-in?next=%2Fconsole%2Fleads%3Fstatus%3DPREQUALIFIED');
  });

  test('the stylesheet the sign-in page links is served without a session', async () => {
    const page = await consoleClient(t.app).get('/console/sign-in');
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec(page.body)?.[1];
    assert.equal(href, '/console/assets/console.css');
    const res = await consoleClient(t.app).get(href);
    assert.equal(res.statusCode, 200, show(res));
    assert.match(String(res.headers['content-type']), /^text\/css/);
    assert.match(res.body, /\{/);
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
    assert.equal(
      t.logs.some((l) => l.includes('wrong password') || l.includes('nobody@lender.mx')),
      false,
    );
  });

  test(
    'signing in lands on the inbox (303) with a session ' + 'cookie HttpOnly, SameSite=Strict, Secure, path /console',
    async () => {
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
      assert.equal(
        t.logs.some((l) => l.includes(password)),
        false,
      );
    },
  );
}

/** Where sign-in leads, ending sessions, and roles. */
function sessionTests(): void {
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
    for (const page of [
      `/console/companies/${t.partner.companyId}`,
      '/console/operators',
      '/console/audit',
      '/console/webhooks',
      '/console/catalogs',
    ]) {
      const res = await browser.get(page);
      assert.equal(res.statusCode, 403, page);
      assert.match(res.body, /Acceso denegado/);
    }
    const res = await browser.post(`/console/companies/${t.partner.companyId}/credentials`);
    assert.equal(res.statusCode, 403);
    const credentials = await t.app.inject({
      method: 'GET',
      url: `/admin/companies/${t.partner.companyId}/credentials`,
      headers: t.admin,
    });
    assert.equal(credentials.json().items.length, 1);
  });
}

/** Forged forms, throttled attempts and unknown pages. */
function guardTests(): void {
  test('a forged form without the CSRF token is refused (403) and changes nothing', async () => {
    const browser = consoleClient(t.app);
    await browser.signIn('admin@lender.mx', password);
    await browser.get('/console/companies');
    const before = (await t.app.inject({ method: 'GET', url: '/admin/companies', headers: t.admin })).json().items
      .length;
    for (const token of ['', 'forged-token']) {
      const res = await browser.post('/console/companies', { _csrf: token, name: 'Forjada SA' });
      assert.equal(res.statusCode, 403, token);
    }
    const after = (await t.app.inject({ method: 'GET', url: '/admin/companies', headers: t.admin })).json().items
      .length;
    assert.equal(after, before);
  });

  test('sign-in attempts are throttled per e-mail: 429 with Retry-After, before the password is checked', async () => {
    await operator(t, 'analyst', 'target@lender.mx');
    let last;
    for (let i = 0; i <= signInLimits.perEmail; i++) {
      last = await consoleClient(t.app).signIn('target@lender.mx', `wrong password ${i}`);
    }
    assert.equal(last!.statusCode, 429);
    assert.ok(Number(last!.headers['retry-after']) > 0);
    assert.match(last!.body, /Demasiados intentos/);
    // Even the right password waits for the window to end.
    assert.equal((await consoleClient(t.app).signIn('target@lender.mx', password)).statusCode, 429);
  });

  test('an unknown console page is an HTML 404, for every role', async () => {
    const browser = consoleClient(t.app);
    await browser.signIn('admin@lender.mx', password);
    const res = await browser.get('/console/nothing-here');
    assert.equal(res.statusCode, 404);
    assert.match(res.body, /No encontrado/);
    for (const role of ['analyst', 'officer'] as const) {
      await operator(t, role, `${role}-404@lender.mx`);
      const staff = consoleClient(t.app);
      assert.equal((await staff.signIn(`${role}-404@lender.mx`, password)).statusCode, 303);
      const unknown = await staff.get('/console/nothing-here');
      assert.equal(unknown.statusCode, 404, role);
      assert.match(unknown.body, /No encontrado/);
    }
    // Signed out, it still asks to sign in first.
    assert.equal((await consoleClient(t.app).get('/console/nothing-here')).statusCode, 302);
  });
}

describe('operator console: the sandbox on a loopback address', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ database: 'own', env: { AUTOFIN_ENV: 'sandbox' } });
    await operator(t, 'admin', 'admin@lender.mx');
  });
  after(() => t.close());

  test('cookies are not Secure on 127.0.0.1 and localhost in the sandbox, and are elsewhere', async () => {
    for (const [host, secure] of [
      ['127.0.0.1:8080', false],
      ['localhost:8080', false],
      ['[::1]:8080', false],
      ['sandbox.lender.mx', true],
    ] as const) {
      const browser = consoleClient(t.app, { host });
      const res = await browser.signIn('admin@lender.mx', password);
      assert.equal(res.statusCode, 303, host);
      const session = cookieAttributes(res.headers['set-cookie'], 'autofin_session');
      assert.equal(/; Secure/.test(session), secure, `${host}: ${session}`);
    }
  });
});
