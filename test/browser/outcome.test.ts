/**
 * The lender's decision in a real browser: an officer records a conditioned approval with its
 * conditions, then the approval (refused once, its amount unreadable; then typed "$250,000.00") and
 * the funding, on a lead's page, which then offers no form; the partner's GET /leads/{leadId}
 * then shows the funded outcome. The reports page shows the funnel as a chart and as a table. axe
 * checks both pages, which are photographed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, show } from '../helper.ts';
import { assertAccessible } from './accessibility.ts';
import { browserTests } from './chromium.ts';
import { startListeningService, type ListeningService } from './listening-service.ts';
import { signedInOfficer } from './officer-session.ts';
import { screenshot } from './screenshots.ts';

const password = 'una contraseña larga';

describe('the lender’s decision in the console', { skip: browserTests.skip }, () => {
  let service: ListeningService;
  let browser: Browser;
  let page: Page;
  let leadId: string;

  before(async () => {
    service = await startListeningService();
    ({ browser, page, leadId } = await signedInOfficer(service, password));
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  async function decide(fill: () => Promise<void>) {
    await page.goto(`${service.base}/console/leads/${leadId}`);
    await fill();
    await page.getByRole('button', { name: 'Guardar decisión' }).click();
    await page.waitForURL(new RegExp(`/console/leads/${leadId}#decision-credito$`));
  }

  test('an officer conditions, approves and funds a lead; the partner reads the funded outcome', async () => {
    await page.goto(`${service.base}/console/leads/${leadId}`);
    // The first screen (1280 × 800) holds the applicant, the amount, the vehicle and both statuses.
    const header = page.locator('section[aria-labelledby="resumen"]');
    const box = await header.boundingBox();
    assert.ok(box && box.y + box.height <= 800, `the header ends within the first screen (${JSON.stringify(box)})`);
    assert.match(await header.innerText(), /Monto solicitado\s+\$[\d,]+\.\d{2}/);
    assert.match(await header.innerText(), /Decisión del otorgante\s+—/);
    await assertAccessible(page, 'lead page with the decision form');
    await page.getByText('Más condiciones (4 a 10)').click();
    await page.getByLabel('Detalle de la condición 10', { exact: true }).waitFor();
    await assertAccessible(page, 'decision form with all ten condition rows open');
    await decide(async () => {
      await page.getByRole('combobox', { name: 'Decisión', exact: true }).selectOption({ label: 'Condicionada' });
      await page.getByLabel('Condición 1', { exact: true }).selectOption({ label: 'Comprobante de ingresos' });
      await page.getByLabel('Detalle de la condición 1', { exact: true }).fill('Últimos 3 recibos de nómina');
      await page.getByLabel('Condición 2', { exact: true }).selectOption({ label: 'Enganche mayor' });
      await page.getByLabel('Detalle de la condición 2', { exact: true }).fill('Enganche de 30%');
      await page.getByLabel('Nota interna (no la ve el socio)').fill('Llamar el lunes');
    });
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Decisión del otorgante' }) });
    assert.match(await section.innerText(), /Condicionada[\s\S]*Comprobante de ingresos: Últimos 3 recibos de nómina/);
    assert.match(await section.innerText(), /Llamar el lunes/);

    // A refusal answers the same page: the message beside its field, what was typed still there.
    await page.getByRole('combobox', { name: 'Decisión', exact: true }).selectOption({ label: 'Aprobada' });
    await page.getByLabel('Monto aprobado (aprobada)').fill('doscientos mil');
    await page.getByLabel('Nota interna (no la ve el socio)').fill('Aprobar hoy');
    await page.getByRole('button', { name: 'Guardar decisión' }).click();
    const amount = page.getByLabel('Monto aprobado (aprobada)');
    await page.locator('#amountApproved-error').waitFor();
    assert.equal(
      await page.locator('#amountApproved-error').innerText(),
      'Escribe un monto en pesos, por ejemplo $250,000.00.',
    );
    assert.equal(await amount.getAttribute('aria-describedby'), 'amountApproved-error');
    assert.equal(await amount.inputValue(), 'doscientos mil');
    assert.equal(await page.getByLabel('Nota interna (no la ve el socio)').inputValue(), 'Aprobar hoy');
    await assertAccessible(page, 'decision form refused');
    await screenshot(page, 'console-decision-refused');
    await amount.fill('$250,000.00');
    await page.getByRole('button', { name: 'Guardar decisión' }).click();
    await page.waitForURL(new RegExp(`/console/leads/${leadId}#decision-credito$`));
    await decide(async () => {
      await page.getByRole('combobox', { name: 'Decisión', exact: true }).selectOption({ label: 'Fondeada' });
      await page.getByLabel('Monto fondeado (fondeada)').fill('245000.50');
    });
    const text = await section.innerText();
    assert.match(text, /Fondeada/);
    assert.match(text, /\$245,000\.50/);
    const history = section.locator('table tbody tr');
    assert.equal(await history.count(), 3);
    await screenshot(page, 'console-lead-outcome');

    const t = service.testApp;
    const res = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: t.partner.headers });
    assert.equal(res.statusCode, 200, show(res));
    const outcome = res.json().outcome;
    assert.equal(outcome.status, 'FUNDED');
    assert.equal(outcome.amountApproved, 250000);
    assert.equal(outcome.amountFunded, 245000.5);
    assert.ok(!res.body.includes('Llamar el lunes'), 'the note stays with the lender');
  });

  test('a funded decision is final: the page offers no form', async () => {
    await page.goto(`${service.base}/console/leads/${leadId}`);
    await page.getByText('Sin formulario de decisión: la decisión «Fondeada» es final.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Guardar decisión' }).count(), 0);
  });

  test('the inbox filters by outcome, and the reports page shows the funnel as a chart and a table', async () => {
    await page.goto(`${service.base}/console/leads`);
    await page.getByLabel('Decisión del otorgante').selectOption({ label: 'Fondeada' });
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/outcome=FUNDED/);
    assert.equal(await page.locator('table tbody tr').count(), 1);

    await page.getByRole('link', { name: 'Reportes' }).click();
    await page.waitForURL(/\/console\/reports$/);
    const chart = page.getByRole('img', { name: /Embudo de solicitudes/ });
    await chart.waitFor();
    assert.match((await chart.locator('desc').textContent()) ?? '', /Fondeadas: 1/);
    const table = page.getByRole('table', { name: 'Embudo por empresa' });
    const totals = await table.locator('tfoot tr').innerText();
    assert.match(totals, /Total\s+1\s+1\s+1\s+1\s+1\s+\$245,000\.50/);
    await assertAccessible(page, 'reports page');
    await screenshot(page, 'console-reports');
  });
});
