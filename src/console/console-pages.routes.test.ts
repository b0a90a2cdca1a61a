import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { consoleClient } from '../../test/console-client.ts';
import { verifiedLead } from '../../test/lender-fixture.ts';
import { leadDefaults, readyLead } from '../../test/lead-fixture.ts';
import { vehicleColumns } from '../catalogs/catalog-file.ts';

const password = 'correct horse battery';

async function operator(t: TestApp, role: 'admin' | 'analyst', email: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/operators',
    headers: t.admin,
    payload: { name: `Ana ${role}`, role, email, password },
  });
  assert.equal(res.statusCode, 201, show(res));
  return res.json() as { id: string };
}

/**
 * The catalog form as a browser sends it: multipart, the page's CSRF token a field before the file.
 * `token` moves it after the file or into the query string (as the form once did), to prove both refused.
 */
function catalogUpload(
  t: TestApp,
  browser: ReturnType<typeof consoleClient>,
  kind: string,
  file: string,
  token: 'before-file' | 'after-file' | 'query' = 'before-file',
) {
  const boundary = 'formboundary1234';
  const csrf = [`--${boundary}`, 'Content-Disposition: form-data; name="_csrf"', '', browser.csrf()];
  const body = [
    ...(token === 'before-file' ? csrf : []),
    `--${boundary}`,
    'Content-Disposition: form-data; name="kind"',
    '',
    kind,
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="catalog.csv"',
    'Content-Type: text/csv',
    '',
    file,
    ...(token === 'after-file' ? csrf : []),
    `--${boundary}--`,
    '',
  ].join('\r\n');
  const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const query = token === 'query' ? `?_csrf=${encodeURIComponent(browser.csrf())}` : '';
  return t.app.inject({
    method: 'POST',
    url: `/console/catalogs/import${query}`,
    payload: body,
    headers: { host: 'console.example.mx', cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

let t: TestApp;
let admin: ReturnType<typeof consoleClient>;

describe('operator console: pages', () => {
  before(async () => {
    // The lender's CRM resolves to a public address; deliveries then fail, which is fine here.
    t = await buildTestApp({ database: 'own', webhookResolver: async () => [{ address: '93.184.216.34', family: 4 }] });
    await operator(t, 'admin', 'admin@lender.mx');
    admin = consoleClient(t.app);
    await admin.signIn('admin@lender.mx', password);
  });
  after(() => t.close());

  inboxAndLeadTests();
  adminPageTests();
});

/** The inbox and the lead page. */
function inboxAndLeadTests(): void {
  test('the inbox: one column per fact, filters by pre-qualification and decision, counts per status', async () => {
    const { leadId: verified } = await verifiedLead(t, 'SMS');
    const other = await readyLead(t);
    const read = (
      await t.app.inject({ method: 'GET', url: `${api}/leads/${verified}`, headers: t.partner.headers })
    ).json();
    const decision = read.prequalification.decision as string;
    const res = await admin.get(`/console/leads?decision=${decision}&status=&companyId=&from=&to=`);
    assert.equal(res.statusCode, 200, show(res));
    assert.match(res.body, new RegExp(`/console/leads/${verified}`));
    assert.doesNotMatch(res.body, new RegExp(`/console/leads/${other}`));
    const all = await admin.get('/console/leads');
    assert.match(all.body, new RegExp(`/console/leads/${other}`));
    assert.match(all.body, /Total <strong>2<\/strong>/);
    const headings = [...all.body.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]);
    assert.deepEqual(headings, ['Solicitante', 'Monto', 'Estado', 'Decisión del otorgante', 'Empresa', 'Creada']);
    // The applicant's name opens the lead; the amount requested is the price minus the down payment.
    assert.match(
      all.body,
      new RegExp(
        `<td><a href="/console/leads/${other}">Anacleta Maricruz Zubizarreta Quiñones</a></td>` +
          `\\s*<td>\\$240,000\\.00</td>`,
      ),
    );
    assert.equal(leadDefaults.price - leadDefaults.downPayment, 240_000);
    // Once the person's data is erased, "—" (the link says which lead it opens).
    const erased = await t.app.inject({
      method: 'DELETE',
      url: `/admin/leads/${other}/personal-data`,
      headers: t.admin,
    });
    assert.equal(erased.statusCode, 204, show(erased));
    const after = await admin.get('/console/leads');
    assert.match(
      after.body,
      new RegExp(`<a href="/console/leads/${other}" aria-label="Solicitud ${other.slice(0, 8)}, sin nombre">—</a>`),
    );
    const decided = await t.app.inject({
      method: 'POST',
      url: `/admin/leads/${verified}/outcome`,
      headers: t.admin,
      payload: { status: 'IN_REVIEW' },
    });
    assert.equal(decided.statusCode, 200, show(decided));
    const inReview = await admin.get('/console/leads?outcome=IN_REVIEW');
    assert.match(inReview.body, new RegExp(`/console/leads/${verified}"[\\s\\S]*?<td>En revisión</td>`));
    assert.doesNotMatch(inReview.body, new RegExp(`/console/leads/${other}`));
    const bad = await admin.get('/console/leads?status=NOPE');
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /Datos no válidos/);
  });

  test(
    'a lead page shows the consent receipt and the explanation, ' + 'has no personal data in its title, and is audited',
    async () => {
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
    },
  );

  test('a lead page opens on the applicant, amount, vehicle and both statuses; evidence before the form', async () => {
    const { leadId } = await verifiedLead(t, 'SMS');
    const byToken = await t.app.inject({
      method: 'POST',
      url: `/admin/leads/${leadId}/outcome`,
      headers: t.admin,
      payload: { status: 'IN_REVIEW' },
    });
    assert.equal(byToken.statusCode, 200, show(byToken));
    await admin.get(`/console/leads/${leadId}`);
    const decided = await admin.post(`/console/leads/${leadId}/outcome`, {
      status: 'CONDITIONED',
      conditionCode0: 'CO_SIGNER',
      conditionDescription0: 'Aval con casa propia',
    });
    assert.equal(decided.statusCode, 303, show(decided));
    const res = await admin.get(`/console/leads/${leadId}`);
    assert.equal(res.statusCode, 200, show(res));
    const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    const header = text(/<section aria-labelledby="resumen"[\s\S]*?<\/section>/.exec(res.body)?.[0] ?? '');
    assert.match(header, /Solicitante Anacleta Maricruz Zubizarreta Quiñones /);
    // 340,000 for the vehicle, 100,000 down.
    assert.match(header, /Monto solicitado \$240,000\.00 /);
    assert.match(header, /Vehículo \S[^]*? 2024 Estado /);
    assert.match(header, /Estado (Precalificada|No precalificada) /);
    assert.match(header, /Decisión del otorgante Condicionada /);
    const at = (marker: string) => {
      const index = res.body.indexOf(marker);
      assert.notEqual(index, -1, marker);
      return index;
    };
    const order = ['id="resumen"', 'id="consentimiento"', 'id="buro"', 'id="explicacion"', 'id="documentos"'];
    const positions = [...order, 'id="decision-credito"', 'Guardar decisión'].map(at);
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
      'header, evidence, then the decision form',
    );
    const history = /<table>\s*<caption>Historial de la decisión[\s\S]*?<\/table>/.exec(res.body)?.[0] ?? '';
    assert.match(text(history), /En revisión .* Token de administración .* Condicionada .* Ana admin/);
    assert.doesNotMatch(history, /[0-9a-f]{8}-[0-9a-f]{4}-|admin-token/, 'no operator id');

    const erased = await t.app.inject({
      method: 'DELETE',
      url: `/admin/leads/${leadId}/personal-data`,
      headers: t.admin,
    });
    assert.equal(erased.statusCode, 204, show(erased));
    const after = await admin.get(`/console/leads/${leadId}`);
    const erasedHeader = text(/<section aria-labelledby="resumen"[\s\S]*?<\/section>/.exec(after.body)?.[0] ?? '');
    assert.match(erasedHeader, /Solicitante — \(datos personales borrados\)/);
    assert.doesNotMatch(after.body, /Anacleta/);
  });

  test("a partner's right-to-left override cannot reorder what the lead page shows", async () => {
    // Written as escapes: the characters themselves would reorder this source file too.
    const reference = 'STOCK-\u202Efdp.exe\u2066';
    const created = await t.app.inject({
      method: 'POST',
      url: `${api}/leads`,
      headers: t.partner.headers,
      payload: { autoFinB2BLeadCreatePayload: { externalAutoId: reference } },
    });
    assert.equal(created.statusCode, 201, show(created));
    const leadId = created.json().id as string;
    // The partner reads back what it sent: the API keeps the text as given.
    const read = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: t.partner.headers });
    assert.equal(read.json().externalAutoId, reference);
    const res = await admin.get(`/console/leads/${leadId}`);
    assert.equal(res.statusCode, 200, show(res));
    assert.match(res.body, /STOCK-\uFFFDfdp\.exe\uFFFD/);
    assert.doesNotMatch(res.body, /\p{Bidi_Control}/u);
  });
}

/** Credentials, webhook deliveries, catalogs and operators. */
function adminPageTests(): void {
  test('a credential is created with its secret shown once, then revoked after a confirmation page', async () => {
    const companyPage = await admin.get(`/console/companies/${t.partner.companyId}`);
    assert.equal(companyPage.statusCode, 200);
    const created = await admin.post(`/console/companies/${t.partner.companyId}/credentials`);
    assert.equal(created.statusCode, 200, show(created));
    const key = /<code>(ck_[^<]+)<\/code><\/dd><dt>Secreto de consumidor<\/dt><dd><code>(cs_[^<]+)<\/code>/.exec(
      created.body,
    );
    assert.ok(key, 'the secret is shown');
    const token = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      payload: { consumer_key: key[1], consumer_secret: key[2] },
    });
    assert.equal(token.statusCode, 200);
    const again = await admin.get(`/console/companies/${t.partner.companyId}`);
    assert.doesNotMatch(again.body, new RegExp(key[2]));
    const confirm = await admin.get(`/console/companies/${t.partner.companyId}/credentials/${key[1]}/revoke`);
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /¿Revocar la credencial/);
    const revoked = await admin.post(`/console/companies/${t.partner.companyId}/credentials/${key[1]}/revoke`);
    assert.equal(revoked.statusCode, 303);
    assert.equal(revoked.headers.location, `/console/companies/${t.partner.companyId}?notice=credential-revoked`);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      payload: { consumer_key: key[1], consumer_secret: key[2] },
    });
    assert.equal(refused.statusCode, 401);
  });

  test("a delivery of the lender's webhook endpoint is redelivered", async () => {
    const page = await admin.get('/console/webhooks');
    assert.equal(page.statusCode, 200);
    const refused = await admin.post('/console/webhooks', { url: 'https://user:secret@crm.lender.example/hooks' });
    assert.equal(refused.statusCode, 400, show(refused));
    assert.match(refused.body, /No se pudo guardar: La dirección no puede llevar usuario ni contraseña\./);
    assert.doesNotMatch(refused.body, /must not|credentials/);
    await admin.get('/console/webhooks');
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
    const res = await catalogUpload(t, admin, 'vehicles', 'not,a,catalog');
    assert.equal(res.statusCode, 400, show(res));
    assert.match(res.body, /Archivo rechazado/);
    const brands = await t.app.inject({
      method: 'GET',
      url: `${api}/catalogs/years/2020/brands`,
      headers: t.partner.headers,
    });
    assert.equal(brands.statusCode, 200);
  });

  test('operators are created with a key shown once; the audit page lists reads', async () => {
    const page = await admin.get('/console/operators');
    assert.equal(page.statusCode, 200);
    const short = await admin.post('/console/operators', {
      name: 'Luis',
      email: 'luis@lender.mx',
      role: 'analyst',
      password: 'short',
    });
    assert.equal(short.statusCode, 400);
    assert.match(short.body, /password/);
    const created = await admin.post('/console/operators', {
      name: 'Luis',
      email: 'luis@lender.mx',
      role: 'analyst',
      password,
    });
    assert.equal(created.statusCode, 200, show(created));
    assert.match(created.body, /op_[A-Za-z0-9_-]+/);
    const luis = consoleClient(t.app);
    assert.equal((await luis.signIn('luis@lender.mx', password)).statusCode, 303);
    const audit = await admin.get('/console/audit');
    assert.equal(audit.statusCode, 200);
    assert.match(audit.body, /Lectura de solicitud/);
  });
}

describe('operator console: importing a catalog', () => {
  let t: TestApp;
  before(async () => {
    // A catalog store of its own: the import replaces this test's catalog only.
    t = await buildTestApp({ ownCatalogStore: true });
    await operator(t, 'admin', 'admin@lender.mx');
  });
  after(() => t.close());

  test('an imported file is in force at once: the page shows its rows and the partner API serves it', async () => {
    const admin = consoleClient(t.app);
    await admin.signIn('admin@lender.mx', password);
    await admin.get('/console/catalogs');
    const rows = [0, 1, 2].map((i) => `2031,9001,ACME,9101,ROADSTER,${900_001 + i},BASE ${i + 1},manual`);
    const res = await catalogUpload(t, admin, 'vehicles', [vehicleColumns.join(','), ...rows, ''].join('\n'));
    assert.equal(res.statusCode, 303, show(res));
    assert.equal(res.headers.location, '/console/catalogs?notice=catalog-imported');
    const page = await admin.get('/console/catalogs?notice=catalog-imported');
    assert.match(page.body, /Catálogo importado/);
    assert.match(page.body, /<td>Vehículos<\/td><td>3<\/td>/);
    const brands = await t.app.inject({
      method: 'GET',
      url: `${api}/catalogs/years/2031/brands`,
      headers: t.partner.headers,
    });
    assert.equal(brands.statusCode, 200, show(brands));
    assert.match(brands.body, /ACME/);
  });

  test('the form carries its CSRF token as a field before the file, never in its URL', async () => {
    const admin = consoleClient(t.app);
    await admin.signIn('admin@lender.mx', password);
    const page = await admin.get('/console/catalogs');
    const form = /<form method="post" action="([^"]*)" enctype="multipart\/form-data">([\s\S]*?)<\/form>/.exec(
      page.body,
    );
    assert.ok(form, page.body);
    assert.equal(form[1], '/console/catalogs/import');
    assert.ok(
      form[2].indexOf('name="_csrf"') >= 0 && form[2].indexOf('name="_csrf"') < form[2].indexOf('type="file"'),
      form[2],
    );
  });

  test('a token in the query string or after the file is refused with 403 and the catalog stays', async () => {
    const admin = consoleClient(t.app);
    await admin.signIn('admin@lender.mx', password);
    await admin.get('/console/catalogs');
    const rows = ['2032,9002,FORJA,9102,COUPE,900101,BASE,manual'];
    for (const token of ['query', 'after-file'] as const) {
      const res = await catalogUpload(t, admin, 'vehicles', [vehicleColumns.join(','), ...rows, ''].join('\n'), token);
      assert.equal(res.statusCode, 403, `${token}: ${show(res)}`);
      assert.match(res.body, /Acceso denegado/);
    }
    // The same route sent a plain form: its token is checked as any form's, then the missing file is a 400.
    assert.equal((await admin.post('/console/catalogs/import', { _csrf: 'forged', kind: 'vehicles' })).statusCode, 403);
    assert.equal((await admin.post('/console/catalogs/import', { kind: 'vehicles' })).statusCode, 400);
    const brands = await t.app.inject({
      method: 'GET',
      url: `${api}/catalogs/years/2032/brands`,
      headers: t.partner.headers,
    });
    assert.doesNotMatch(brands.body, /FORJA/, show(brands));
  });
});
