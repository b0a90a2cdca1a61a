/**
 * Browser-test helper: an operator signed in to the console of a listening service, in a Chromium page at
 * desktop width; for a loan officer, with a verified lead of the test app to work on.
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { show } from '../helper.ts';
import { verifiedLead } from '../lender-fixture.ts';
import { launchChromium } from './chromium.ts';
import type { ListeningService } from './listening-service.ts';

/** An operator of `role`, made through the admin API and signed in to the console in a new Chromium page. */
export async function signedInOperator(
  service: ListeningService,
  operator: { name: string; role: 'admin' | 'officer' | 'analyst'; email: string; password: string },
): Promise<{ browser: Browser; page: Page }> {
  const t = service.testApp;
  const res = await t.app.inject({ method: 'POST', url: '/admin/operators', headers: t.admin, payload: operator });
  assert.equal(res.statusCode, 201, show(res));
  const browser = await launchChromium();
  const context = await browser.newContext({ locale: 'es-MX', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${service.base}/console/leads`);
  await page.getByLabel('Correo electrónico').fill(operator.email);
  await page.getByLabel('Contraseña').fill(operator.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(/\/console\/leads$/);
  return { browser, page };
}

/** A loan officer signed in, and a verified lead of the test app to work on. */
export async function signedInOfficer(
  service: ListeningService,
  password: string,
): Promise<{ browser: Browser; page: Page; leadId: string }> {
  const officer = { name: 'Olga (crédito)', role: 'officer' as const, email: 'oficial@lender.mx', password };
  const { browser, page } = await signedInOperator(service, officer);
  const leadId = (await verifiedLead(service.testApp, 'SMS')).leadId;
  return { browser, page, leadId };
}
