/**
 * The operator console in a real browser (Chromium through playwright-core): a loan officer signs in,
 * filters the inbox to pre-qualified leads, opens one and reads its consent receipt and explanation;
 * an admin creates and revokes a credential and redelivers a webhook; a forged form is refused; "Salir"
 * signs out; an analyst cannot reach the credential pages. axe-core checks every page (no serious or
 * critical violation) and the inbox and lead pages are photographed for the README.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, show } from '../helper.ts';
import { sandboxRfc } from '../lead-fixture.ts';
import { verifiedLead } from '../../src/lender/lender-fixture.ts';
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
    service = await startListeningService({ webhookResolver: async () => [{ address: '93.184.216.34', family: 4 }] });
    const t = service.testApp;
    for (const [role, email] of [['admin', 'admin@lender.mx'], ['analyst', 'analyst@lender.mx']]) {
      const res = await t.app.inject({ method: 'POST', url: '/admin/operators', headers: t.admin, payload: { name: `Ana (${role})`, role, email, password } });
      assert.equal(res.statusCode, 201, show(res));
    }
    const hook = await t.app.inject({ method: 'POST', url: '/admin/webhooks', headers: t.admin, payload: { url: 'https://crm.lender.example/hooks' } });
    assert.equal(hook.statusCode, 201, show(hook));
    prequalified = (await verifiedLead(t, 'SMS', { rfc: sandboxRfc.A1 })).leadId;
    notPrequalified = (await verifiedLead(t, 'EMAIL', { rfc: sandboxRfc.D1 })).leadId;
    const decisionOf = async (id: string) =>
      (await t.app.inject({ method: 'GET', url: `${api}/leads/${id}`, headers: t.partner.headers })).json().prequalification?.decision;
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
    await page.getByLabel('Decisión').selectOption({ label: 'Precalificada' });
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/decision=PREQUALIFIED/);
    const rows = page.locator('table tbody tr');
    assert.ok((await rows.count()) >= 1);
    for (const decision of await rows.locator('td:nth-child(5)').allInnerTexts()) assert.equal(decision, 'Precalificada');
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
    for (const [link, heading] of [['Catálogos', 'Catálogos'], ['Operadores', 'Operadores'], ['Auditoría', 'Auditoría']]) {
      await page.getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await accessible(link);
    }
    assert.match(await page.locator('main').innerText(), /Lectura de solicitud/);
  });

  test('a forged form without the CSRF token is refused and changes nothing', async () => {
    const t = service.testApp;
    const count = async () => (await t.app.inject({ method: 'GET', url: '/admin/companies', headers: t.admin })).json().items.length;
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
