/**
 * Browser-test helper: a loan officer signed in to the console of a listening service, in a Chromium
 * page at desktop width, and a verified lead of the test app to work on.
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { show } from '../helper.ts';
import { verifiedLead } from '../lender-fixture.ts';
import { launchChromium } from './chromium.ts';
import type { ListeningService } from './listening-service.ts';

export async function signedInOfficer(
  service: ListeningService,
  password: string,
): Promise<{ browser: Browser; page: Page; leadId: string }> {
  const t = service.testApp;
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/operators',
    headers: t.admin,
    payload: { name: 'Olga (crédito)', role: 'officer', email: 'oficial@lender.mx', password },
  });
  assert.equal(res.statusCode, 201, show(res));
  const leadId = (await verifiedLead(t, 'SMS')).leadId;
  const browser = await launchChromium();
  const context = await browser.newContext({ locale: 'es-MX', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${service.base}/console/leads`);
  await page.getByLabel('Correo electrónico').fill('oficial@lender.mx');
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(/\/console\/leads$/);
  return { browser, page, leadId };
}
