/**
 * Every console page, as an admin, a loan officer and an analyst see it, in a real browser: its visible text
 * (the body, the title, the labels read to screen readers) has no English word and no raw key of the service
 * (src/console/page-text.ts), axe finds no serious or critical violation, and at 390 pixels wide (a phone)
 * the page does not scroll sideways (a table may scroll inside its own box). Each page is screenshot at 1280
 * and 390 pixels (test-output/screenshots/page-<role>-<page>.png and -phone.png).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, show, type TestApp } from '../helper.ts';
import { consoleOperator } from '../console-client.ts';
import { sandboxRfc } from '../lead-fixture.ts';
import { verifiedLead } from '../lender-fixture.ts';
import { plainPdf, uploadForm } from '../document-files.ts';
import { describeProblems, textProblems } from '../../src/console/page-text.ts';
import { assertAccessible } from './accessibility.ts';
import { browserTests, launchChromium } from './chromium.ts';
import { startListeningService, type ListeningService } from './listening-service.ts';
import { screenshot } from './screenshots.ts';

const password = 'una contraseña larga';
type Role = 'admin' | 'officer' | 'analyst';
// The operators' names are shown on every page: Spanish, so only the console's own words are checked.
const names: Record<Role, string> = { admin: 'Alcántara', officer: 'Ortega', analyst: 'Arriaga' };

/** The text a person sees or hears on the page: the body's rendered text, the title, and labels. */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const labels = [...document.querySelectorAll('[aria-label], [placeholder], [title], [alt]')].flatMap((e) =>
      ['aria-label', 'placeholder', 'title', 'alt'].map((a) => e.getAttribute(a) ?? ''),
    );
    return [document.title, document.body.innerText, ...labels].join('\n');
  });
}

describe('every console page reads in Spanish and fits a phone', { skip: browserTests.skip }, () => {
  let service: ListeningService;
  let browser: Browser;
  const leads: Record<'prequalified' | 'notPrequalified' | 'conditioned', string> = {
    prequalified: '',
    notPrequalified: '',
    conditioned: '',
  };
  let endpointId = '';

  before(async () => {
    service = await startListeningService({ webhookResolver: async () => [{ address: '93.184.216.34', family: 4 }] });
    const t = service.testApp;
    for (const role of ['admin', 'officer', 'analyst'] as const) {
      await consoleOperator(t.app, t.admin, role, password, { email: `${role}@lender.mx`, name: `Ana ${names[role]}` });
    }
    const hook = await t.app.inject({
      method: 'POST',
      url: '/admin/webhooks',
      headers: t.admin,
      payload: { url: 'https://crm.lender.example/hooks' },
    });
    assert.equal(hook.statusCode, 201, show(hook));
    endpointId = hook.json().id;
    leads.prequalified = (await verifiedLead(t, 'SMS', { rfc: sandboxRfc.A1 })).leadId;
    leads.notPrequalified = (await verifiedLead(t, 'EMAIL', { rfc: sandboxRfc.D1 })).leadId;
    leads.conditioned = await conditionedWithDocument(t);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  /** The pages a role opens, each with its label and the status it answers. */
  function pagesOf(role: Role): [label: string, path: string, status: number][] {
    const everyone: [string, string, number][] = [
      ['inbox', '/console/leads', 200],
      ['inbox, filtered', '/console/leads?decision=PREQUALIFIED&status=&companyId=&from=&to=', 200],
      ['lead with an offer', `/console/leads/${leads.prequalified}`, 200],
      ['lead not pre-qualified', `/console/leads/${leads.notPrequalified}`, 200],
      ['lead with a decision and documents', `/console/leads/${leads.conditioned}`, 200],
      ['reports', '/console/reports', 200],
      ['reports, a window', '/console/reports?from=2026-01-01&to=2026-12-31&companyId=', 200],
      ['reports, a reversed window', '/console/reports?from=2026-12-31&to=2026-01-01&companyId=', 400],
      ['companies', '/console/companies', 200],
      ['not found', '/console/no-existe', 404],
    ];
    const admin: [string, string, number][] = [
      ['company', `/console/companies/${service.testApp.partner.companyId}`, 200],
      ['webhooks', '/console/webhooks', 200],
      ['webhook', `/console/webhooks/${endpointId}`, 200],
      ['catalogs', '/console/catalogs', 200],
      ['operators', '/console/operators', 200],
      ['audit', '/console/audit', 200],
    ];
    const forbidden: [string, string, number][] = [['forbidden', '/console/operators', 403]];
    return role === 'admin' ? [...everyone, ...admin] : [...everyone, ...forbidden];
  }

  /**
   * Checks the page open now: its text, its accessibility, and its width on a phone; what is wrong, if
   * anything. Screenshots it at 1280 and 390 pixels as `page-<who>-<label>`.
   */
  async function check(page: Page, label: string, who: string): Promise<string[]> {
    const failures: string[] = [];
    const where = `${label} (${new URL(page.url()).pathname})`;
    const problems = textProblems(await visibleText(page));
    if (problems.length > 0) failures.push(`${where} shows:\n${describeProblems(problems)}`);
    await assertAccessible(page, label).catch((error: Error) => failures.push(error.message));
    // The width is read at 390 pixels, in the layout the phone screenshot is taken of.
    let width = 0;
    await screenshot(page, `page-${who}-${label.replace(/[^a-z0-9]+/gi, '-')}`, {
      phone: true,
      atPhoneWidth: async () => {
        width = await page.evaluate(() => document.documentElement.scrollWidth);
      },
    });
    if (width > 390) failures.push(`${where} is ${width} pixels wide at 390`);
    return failures;
  }

  test('the sign-in page', async () => {
    const context = await browser.newContext({ locale: 'es-MX', viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      const res = await page.goto(`${service.base}/console/sign-in`);
      assert.equal(res?.status(), 200);
      assert.deepEqual(await check(page, 'sign-in', 'signed-out'), []);
    } finally {
      await context.close();
    }
  });

  for (const role of ['admin', 'officer', 'analyst'] as const) {
    test(`every page an ${role} opens`, async () => {
      const context = await browser.newContext({ locale: 'es-MX', viewport: { width: 1280, height: 800 } });
      try {
        const page = await context.newPage();
        await page.goto(`${service.base}/console/sign-in`);
        await page.getByLabel('Correo electrónico').fill(`${role}@lender.mx`);
        await page.getByLabel('Contraseña').fill(password);
        await page.getByRole('button', { name: 'Entrar' }).click();
        await page.waitForURL(/\/console\/leads$/);
        const failures: string[] = [];
        for (const [label, path, status] of pagesOf(role)) {
          const res = await page.goto(`${service.base}${path}`);
          assert.equal(res?.status(), status, `${role}, ${label}: ${path}`);
          failures.push(...(await check(page, label, role)));
        }
        assert.equal(failures.length, 0, failures.join('\n'));
      } finally {
        await context.close();
      }
    });
  }
});

/** A pre-qualified lead the lender conditioned on a document, which the dealer then sent. */
async function conditionedWithDocument(t: TestApp): Promise<string> {
  const { leadId } = await verifiedLead(t, 'SMS', { rfc: sandboxRfc.A1 });
  const income = { code: 'PROOF_OF_INCOME', description: 'Últimos 3 recibos de nómina' };
  const outcome = await t.app.inject({
    method: 'POST',
    url: `/admin/leads/${leadId}/outcome`,
    headers: t.admin,
    payload: { status: 'CONDITIONED', conditions: [income] },
  });
  assert.equal(outcome.statusCode, 200, show(outcome));
  const conditionId = outcome.json().conditions[0].id as string;
  const form = uploadForm(conditionId, { fileName: 'recibos.pdf', data: await plainPdf() }, 'PROOF_OF_INCOME');
  const sent = await t.app.inject({
    method: 'POST',
    url: `${api}/leads/${leadId}/documents`,
    payload: form.payload,
    headers: { ...t.partner.headers, ...form.headers },
  });
  assert.equal(sent.statusCode, 201, show(sent));
  return leadId;
}
