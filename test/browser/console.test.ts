/**
 * The operator console in a real browser (Chromium through playwright-core): a loan officer signs in,
 * filters the inbox to pre-qualified leads, opens one and reads it all in Spanish (consent receipt,
 * explanation, sections, events); an admin creates and revokes a credential, redelivers a webhook and
 * imports a catalog file; a forged form is refused; "Salir" signs out; an analyst cannot reach the
 * credential pages. axe-core checks every page (no serious or
 * critical violation) and the inbox and lead pages are photographed for the README.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, show } from '../helper.ts';
import { consoleOperator } from '../console-client.ts';
import { sandboxRfc } from '../lead-fixture.ts';
import { verifiedLead } from '../lender-fixture.ts';
import { vehicleColumns } from '../../src/catalogs/catalog-file.ts';
import { assertAccessible } from './accessibility.ts';
import { browserTests, launchChromium } from './chromium.ts';
import { startListeningService, type ListeningService } from './listening-service.ts';
import { screenshot } from './screenshots.ts';

const password = 'una contraseña larga';

describe('the operator console in a browser', { skip: browserTests.skip }, () => {
  let service: ListeningService;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let prequalified: string;
  let notPrequalified: string;
  const checked = new Set<string>();

  /** Opens (or is on) a page and checks it with axe once per path. */
  async function accessible(label: string) {
    const path = new URL(page.url()).pathname.replace(/[0-9a-f-]{36}/g, ':id');
    if (checked.has(path)) return;
    await assertAccessible(page, label);
    checked.add(path);
  }

  async function signIn(p: Page, email: string) {
    await p.goto(`${service.base}/console/leads`);
    await p.getByLabel('Correo electrónico').fill(email);
    await p.getByLabel('Contraseña').fill(password);
    await p.getByRole('button', { name: 'Entrar' }).click();
    await p.waitForURL(/\/console\/leads$/);
  }

  before(async () => {
    // The lender's CRM resolves to a public address (its deliveries then fail, which is what a redelivery is for).
    // A catalog store of its own: the import below replaces this service's vehicle catalog only.
    service = await startListeningService({
      webhookResolver: async () => [{ address: '93.184.216.34', family: 4 }],
      ownCatalogStore: true,
    });
    const t = service.testApp;
    for (const role of ['admin', 'analyst'] as const) {
      await consoleOperator(t.app, t.admin, role, password, { email: `${role}@lender.mx`, name: `Ana (${role})` });
    }
    const hook = await t.app.inject({
      method: 'POST',
      url: '/admin/webhooks',
      headers: t.admin,
      payload: { url: 'https://crm.lender.example/hooks' },
    });
    assert.equal(hook.statusCode, 201, show(hook));
    prequalified = (await verifiedLead(t, 'SMS', { rfc: sandboxRfc.A1 })).leadId;
    notPrequalified = (await verifiedLead(t, 'EMAIL', { rfc: sandboxRfc.D1 })).leadId;
    const decisionOf = async (id: string) =>
      (await t.app.inject({ method: 'GET', url: `${api}/leads/${id}`, headers: t.partner.headers })).json()
        .prequalification?.decision;
    assert.equal(await decisionOf(prequalified), 'PREQUALIFIED');
    assert.notEqual(await decisionOf(notPrequalified), 'PREQUALIFIED');
    browser = await launchChromium();
    context = await browser.newContext({ locale: 'es-MX', viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  test('sign in, filter the inbox to pre-qualified leads, open one: consent receipt and explanation', async () => {
    await page.goto(`${service.base}/console/leads`);
    await page.waitForURL(/\/console\/sign-in\?next=/);
    await accessible('sign-in');
    await signIn(page, 'admin@lender.mx');
    await accessible('inbox');
    await page.getByLabel('Precalificación').selectOption({ label: 'Precalificada' });
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/decision=PREQUALIFIED/);
    const rows = page.locator('table tbody tr');
    assert.ok((await rows.count()) >= 1);
    assert.equal(await page.locator(`a[href="/console/leads/${notPrequalified}"]`).count(), 0);
    await screenshot(page, 'console-inbox', { phone: true });
    await page.locator(`a[href="/console/leads/${prequalified}"]`).click();
    await page.waitForURL(new RegExp(`/console/leads/${prequalified}$`));
    await page.getByRole('heading', { name: 'Consentimiento' }).waitFor();
    const consent = page.locator('section[aria-labelledby="consentimiento"]');
    assert.match(await consent.innerText(), /PIN confirmado/);
    assert.match(await consent.innerText(), /Clave de consumidor/);
    const explanation = page.locator('section[aria-labelledby="explicacion"]');
    assert.match(await explanation.innerText(), /Versión de las reglas/);
    assert.ok((await explanation.locator('tbody tr').count()) > 0, 'one row per rule');
    assert.doesNotMatch(await page.title(), /Anacleta|Zubizarreta|SAND/);
    await assertReadsInSpanish(page);
    await accessible('lead');
    await screenshot(page, 'console-lead', { phone: true });
  });

  test('create a credential (its secret shown once) and revoke it after confirming', async () => {
    await page.getByRole('link', { name: 'Empresas' }).click();
    await accessible('companies');
    await page.getByRole('link', { name: 'Autos Test' }).first().click();
    await accessible('company');
    await page.getByRole('button', { name: 'Crear credencial' }).click();
    const secretCard = page.locator('section[aria-labelledby="secreto"]');
    await secretCard.waitFor();
    const key = (await secretCard.locator('dd code').first().innerText()).trim();
    assert.match(key, /^ck_/);
    await page.getByRole('link', { name: `Revocar ${key}` }).click();
    await accessible('revoke');
    await page.getByRole('button', { name: 'Revocar' }).click();
    await page.getByText('Credencial revocada.').waitFor();
    const row = page.locator('tr', { hasText: key });
    assert.match(await row.innerText(), /Revocada/);
  });

  test('redeliver a webhook delivery', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await accessible('webhooks');
    await page.getByRole('link', { name: 'https://crm.lender.example/hooks' }).click();
    await accessible('webhook');
    const redeliver = page.getByRole('button', { name: /^Reenviar/ }).first();
    await redeliver.waitFor();
    await redeliver.click();
    await page.getByText('Reenvío programado', { exact: false }).waitFor();
  });

  test('the catalogs, operators and audit pages open and are accessible', async () => {
    for (const [link, heading] of [
      ['Catálogos', 'Catálogos'],
      ['Operadores', 'Operadores'],
      ['Auditoría', 'Auditoría'],
    ]) {
      await page.getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await accessible(link);
    }
    assert.match(await page.locator('main').innerText(), /Lectura de solicitud/);
  });

  test('an admin imports a small catalog file: the page shows the result, the token in no URL', async () => {
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await page.getByRole('link', { name: 'Catálogos', exact: true }).click();
    const form = page.locator('form[enctype="multipart/form-data"]');
    const token = await form.locator('input[name="_csrf"]').inputValue();
    assert.ok(token.length > 10);
    await page.getByLabel('Catálogo', { exact: true }).selectOption({ label: 'Vehículos' });
    const rows = [
      '2033,9003,NAVEGA,9103,SEDAN,900201,BASE,manual',
      '2033,9003,NAVEGA,9103,SEDAN,900202,PLUS,automatic',
    ];
    await page.getByLabel('Archivo', { exact: true }).setInputFiles({
      name: 'vehiculos.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from([vehicleColumns.join(','), ...rows, ''].join('\n')),
    });
    await page.getByRole('button', { name: 'Importar' }).click();
    await page.waitForURL(/\/console\/catalogs\?notice=catalog-imported$/);
    await page.getByText('Catálogo importado', { exact: false }).waitFor();
    assert.match(await page.locator('tr', { hasText: 'Vehículos' }).innerText(), /Vehículos\s+2\s/);
    await accessible('catalog imported');
    page.removeAllListeners('request');
    assert.ok(
      urls.some((u) => u.endsWith('/console/catalogs/import')),
      urls.join('\n'),
    );
    for (const url of urls)
      assert.ok(!url.includes('_csrf') && !url.includes(encodeURIComponent(token)) && !url.includes(token), url);
    const brands = await service.testApp.app.inject({
      method: 'GET',
      url: `${api}/catalogs/years/2033/brands`,
      headers: service.testApp.partner.headers,
    });
    assert.match(brands.body, /NAVEGA/, show(brands));
  });

  test('a forged form without the CSRF token is refused and changes nothing', async () => {
    const t = service.testApp;
    const count = async () =>
      (await t.app.inject({ method: 'GET', url: '/admin/companies', headers: t.admin })).json().items.length;
    const before = await count();
    await page.goto(`${service.base}/console/companies`);
    // A form another page could build: same fields, no token. (Run through the DevTools protocol,
    // which the page's CSP does not block.)
    await page.evaluate(() => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = '/console/companies';
      const name = document.createElement('input');
      name.name = 'name';
      name.value = 'Empresa forjada';
      form.append(name);
      document.body.append(form);
      form.submit();
    });
    await page.getByRole('heading', { name: 'Acceso denegado' }).waitFor();
    assert.equal(await count(), before);
  });

  test('"Salir" signs out: the inbox asks to sign in again', async () => {
    await page.goto(`${service.base}/console/leads`);
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.waitForURL(/\/console\/sign-in\?notice=signed-out/);
    await page.getByText('Sesión cerrada.').waitFor();
    await page.goto(`${service.base}/console/leads`);
    await page.waitForURL(/\/console\/sign-in/);
  });

  test('an analyst reads leads but cannot reach the credential pages', async () => {
    const analyst = await context.browser()!.newContext({ locale: 'es-MX' });
    try {
      const p = await analyst.newPage();
      await signIn(p, 'analyst@lender.mx');
      const nav = await p.getByRole('navigation', { name: 'Secciones' }).innerText();
      assert.doesNotMatch(nav, /Operadores|Webhooks/);
      await p.goto(`${service.base}/console/companies`);
      assert.equal(await p.getByRole('link', { name: 'Autos Test' }).count(), 0);
      const res = await p.goto(`${service.base}/console/companies/${service.testApp.partner.companyId}`);
      assert.equal(res?.status(), 403);
      await p.getByRole('heading', { name: 'Acceso denegado' }).waitFor();
      await assertAccessible(p, 'forbidden');
    } finally {
      await analyst.close();
    }
  });
});

/**
 * A full lead's page as an operator reads it: names, not catalog ids; dates and months in words; every
 * code in Spanish; no field name or enum value of the API.
 */
async function assertReadsInSpanish(page: Page) {
  const fact = async (sectionId: string, term: string) =>
    (
      await page
        .locator(`section[aria-labelledby="${sectionId}"] dt`, { hasText: new RegExp(`^${term}$`) })
        .locator('xpath=following-sibling::dd[1]')
        .innerText()
    ).trim();
  assert.equal(await fact('domicilio', 'Estado'), 'Ciudad de México');
  assert.equal(await fact('domicilio', 'Colonia en el código postal'), 'Sí');
  assert.match(await fact('vehiculo', 'Marca'), /^[A-ZÁÉÍÓÚÑ][\w .-]*$/);
  assert.match(await fact('vehiculo', 'Modelo'), /^[A-ZÁÉÍÓÚÑ0-9][\w .-]*$/);
  assert.equal(await fact('empleo', 'Inicio'), 'marzo de 2015');
  assert.equal(await fact('prestamo', 'Intención de compra'), 'En el próximo mes');
  assert.equal(await fact('persona', 'Fecha de nacimiento'), '12 de abril de 1985');
  assert.equal(await fact('buro', 'Proveedor'), 'Buró de pruebas');
  const events = await page.locator('section[aria-labelledby="eventos"]').innerText();
  for (const event of ['Solicitud creada', 'Domicilio guardado', 'PIN confirmado', 'Precalificación evaluada']) {
    assert.match(events, new RegExp(event));
  }
  const explanation = await page.locator('section[aria-labelledby="explicacion"]').innerText();
  assert.match(explanation, /Edad del solicitante/);
  assert.match(explanation, /Enganche mínimo: 10%/);
  // Every text but the consent receipt's identifiers (a consumer key, a request id) is checked for API names.
  const consent = await page.locator('section[aria-labelledby="consentimiento"]').innerText();
  const shown = (await page.locator('main').innerText()).replace(consent, '');
  for (const raw of [
    /\b[A-Z]+(?:_[A-Z]+)+\b/, // an enum: WITHIN_A_MONTH, LEAD_CREATED, ALLOW_WITH_MIN_DOWN_PAYMENT
    /\b[a-z]+[A-Z]\w*\b/, // a field name: neighborhoodMatched, startDate
    /\b[a-z]+(?:-[a-z]+)+\b/, // a rule's name: applicant-age
    /\bname:|\bmonth:|Clave: \d+,/, // a structure written out
    /\[object Object\]/,
  ]) {
    assert.doesNotMatch(shown, raw);
  }
}
