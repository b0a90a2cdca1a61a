/**
 * The console's admin forms in a real browser: one refusal each (operators, webhooks, an affiliate),
 * answered on the same page with the Spanish message beside its field and what was typed kept, and
 * deleting an operator and a webhook endpoint, confirmed on a page reached by keyboard. axe checks
 * every page shown; the refused pages are photographed at 1280 and 390 pixels wide.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { show } from '../helper.ts';
import { assertAccessible } from './accessibility.ts';
import { browserTests } from './chromium.ts';
import { signedInOperator } from './officer-session.ts';
import { startListeningService, type ListeningService } from './listening-service.ts';
import { phoneViewport, screenshot } from './screenshots.ts';

const password = 'una contraseña larga';

describe('the console’s admin forms', { skip: browserTests.skip }, () => {
  let service: ListeningService;
  let browser: Browser;
  let page: Page;

  before(async () => {
    // Partners' hosts resolve to a public address without asking the network's DNS.
    service = await startListeningService({ webhookResolver: async () => [{ address: '93.184.216.34', family: 4 }] });
    const admin = { name: 'Ana (admin)', role: 'admin' as const, email: 'admin@lender.mx', password };
    ({ browser, page } = await signedInOperator(service, admin));
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  /** The message shown beside a control, which the control names as its description. */
  async function messageBeside(label: string, id: string): Promise<string> {
    const control = page.getByLabel(label, { exact: true });
    assert.equal(await control.getAttribute('aria-invalid'), 'true');
    assert.match((await control.getAttribute('aria-describedby')) ?? '', new RegExp(`\\b${id}-error\\b`));
    return page.locator(`#${id}-error`).innerText();
  }

  /** How much wider than the 390-pixel screen the page is (0: it fits). */
  async function overflowOnPhone(): Promise<number> {
    const before = page.viewportSize();
    await page.setViewportSize(phoneViewport);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (before) await page.setViewportSize(before);
    return Math.max(0, width - phoneViewport.width);
  }

  test('a space-only operator name is refused beside the name, the e-mail kept', async () => {
    await page.goto(`${service.base}/console/operators`);
    await page.getByLabel('Nombre', { exact: true }).fill('   ');
    await page.getByLabel('Correo electrónico', { exact: true }).fill('marta@lender.mx');
    await page.getByLabel('Rol').selectOption({ label: 'Oficial de crédito' });
    await page.getByRole('button', { name: 'Crear operador' }).click();
    await page.locator('#name-error').waitFor();
    assert.equal(await messageBeside('Nombre', 'name'), 'Falta el nombre.');
    assert.equal(await page.getByLabel('Correo electrónico', { exact: true }).inputValue(), 'marta@lender.mx');
    assert.equal(await page.getByLabel('Rol').inputValue(), 'officer');
    await assertAccessible(page, 'operators form refused');
    assert.equal(await overflowOnPhone(), 0, 'the operators page fits a 390-pixel screen');
    await screenshot(page, 'console-operators-refused', { phone: true });
  });

  test('deleting an operator is confirmed first, by keyboard; "Cancelar" deletes nothing', async () => {
    const t = service.testApp;
    const name = `Pablo ${'de la Fuente '.repeat(14)}`.trim();
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/operators',
      headers: t.admin,
      payload: { name, role: 'analyst' },
    });
    assert.equal(res.statusCode, 201, show(res));
    await page.goto(`${service.base}/console/operators`);
    assert.equal(await overflowOnPhone(), 0, 'a long operator name does not widen the page');
    await page.getByRole('link', { name: `Borrar a ${name}` }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/operators\/[0-9a-f-]{36}\/delete$/);
    await page.getByText(`¿Borrar a ${name} (Analista)?`).waitFor();
    await assertAccessible(page, 'operator delete confirmation');
    await page.getByRole('link', { name: 'Cancelar' }).click();
    await page.waitForURL(/\/console\/operators$/);
    await page.getByRole('link', { name: `Borrar a ${name}` }).click();
    await page.getByRole('button', { name: 'Sí, borrar' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/operators\?notice=operator-deleted$/);
    await page.getByText('Operador borrado; sus sesiones terminaron.').waitFor();
    assert.equal(await page.getByRole('link', { name: `Borrar a ${name}` }).count(), 0);
  });

  test('a webhook address with credentials is refused beside the URL, both values kept', async () => {
    await page.goto(`${service.base}/console/webhooks`);
    const url = 'https://user:secret@crm.lender.example/hooks';
    await page.getByLabel('URL (https)').fill(url);
    await page.getByLabel('Descripción (opcional)').fill('CRM principal');
    await page.getByRole('button', { name: 'Crear receptor' }).click();
    await page.locator('#url-error').waitFor();
    assert.equal(await messageBeside('URL (https)', 'url'), 'La dirección no puede llevar usuario ni contraseña.');
    assert.equal(await page.getByLabel('URL (https)').inputValue(), url);
    assert.equal(await page.getByLabel('Descripción (opcional)').inputValue(), 'CRM principal');
    await assertAccessible(page, 'webhooks form refused');
    await screenshot(page, 'console-webhooks-refused', { phone: true });
  });

  test('a webhook endpoint is disabled, and deleted after a confirmation reached by keyboard', async () => {
    await page.goto(`${service.base}/console/webhooks`);
    await page.getByLabel('URL (https)').fill('https://crm.lender.example/borrar');
    await page.getByRole('button', { name: 'Crear receptor' }).click();
    await page.getByRole('heading', { name: 'Secreto de firma' }).waitFor();
    await page.getByRole('button', { name: 'Desactivar' }).click();
    await page.waitForURL(/notice=endpoint-disabled$/);
    await page.getByRole('button', { name: 'Activar' }).waitFor();
    await assertAccessible(page, 'webhook endpoint page');
    await page.getByRole('link', { name: 'Borrar el receptor' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/webhooks\/[0-9a-f-]{36}\/delete$/);
    await assertAccessible(page, 'webhook delete confirmation');
    await page.getByRole('button', { name: 'Sí, borrar' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/webhooks\?notice=endpoint-deleted$/);
    await page.getByText('Receptor borrado: ya no recibe eventos.').waitFor();
    assert.equal(await page.getByRole('link', { name: 'https://crm.lender.example/borrar' }).count(), 0);
  });

  test("an affiliate's identifier that is no UUID is refused beside it, the type chosen kept", async () => {
    const t = service.testApp;
    await page.goto(`${service.base}/console/companies/${t.partner.companyId}`);
    await page.getByLabel('Tipo de afiliado').selectOption({ label: 'Vendedor' });
    await page.getByLabel('Identificador del usuario (opcional)').fill('vendedor-7');
    await page.getByRole('button', { name: 'Agregar afiliado' }).click();
    await page.locator('#user_id-error').waitFor();
    const message = await messageBeside('Identificador del usuario (opcional)', 'user_id');
    assert.match(message, /^Escribe un identificador con el formato/);
    assert.equal(await page.getByLabel('Identificador del usuario (opcional)').inputValue(), 'vendedor-7');
    assert.equal(await page.getByLabel('Tipo de afiliado').inputValue(), 'SELLER');
    assert.doesNotMatch(await page.locator('main').innerText(), /consumer_key|user_id|user_type/);
    await assertAccessible(page, 'affiliate form refused');
    await screenshot(page, 'console-affiliate-refused', { phone: true });
  });
});
