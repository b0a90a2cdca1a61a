/**
 * Documents of a conditioned decision in a real browser: an officer conditions a lead on its page, the
 * dealer uploads a PDF and a photo through the partner API, the officer downloads the PDF and opens the
 * photo on the page, rejects the photo with a reason, the dealer sends another, and the officer accepts
 * it; the partner's API then shows each condition's status. axe checks the lead page with its review
 * forms, which is photographed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync, crc32 } from 'node:zlib';
import type { Browser, Locator, Page } from 'playwright-core';
import { api, show, type TestApp } from '../helper.ts';
import { plainPdf, uploadForm } from '../document-files.ts';
import { assertAccessible } from './accessibility.ts';
import { browserTests } from './chromium.ts';
import { startListeningService, type ListeningService } from './listening-service.ts';
import { signedInOfficer } from './officer-session.ts';
import { screenshot } from './screenshots.ts';

const password = 'una contraseña larga';

/** A real PNG of `width` × `height` pixels of one colour, so the browser draws it. */
function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => rgb[i % 3]!)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/** The dealer's upload through the partner API. */
async function upload(t: TestApp, leadId: string, conditionId: string, type: string, fileName: string, data: Buffer) {
  const form = uploadForm(conditionId, { fileName, data }, type);
  const res = await t.app.inject({
    method: 'POST',
    url: `${api}/leads/${leadId}/documents`,
    payload: form.payload,
    headers: { ...t.partner.headers, ...form.headers },
  });
  assert.equal(res.statusCode, 201, show(res));
}

/** The partner's view of the lead's conditions. */
async function conditions(t: TestApp, leadId: string): Promise<{ id: string; status: string }[]> {
  const res = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: t.partner.headers });
  assert.equal(res.statusCode, 200, show(res));
  return res.json().outcome.conditions;
}

/** How many times the lead's documents were read (the audit). */
async function documentReads(t: TestApp, leadId: string): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/admin/audit?limit=200', headers: t.admin });
  assert.equal(res.statusCode, 200, show(res));
  return (res.json().items as { action: string; leadId: string }[]).filter(
    (r) => r.action === 'document_read' && r.leadId === leadId,
  ).length;
}

describe('documents of the conditions in the console', { skip: browserTests.skip }, () => {
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

  const documents = () =>
    page.locator('section', { has: page.getByRole('heading', { name: 'Documentos de las condiciones' }) });
  const condition = (n: number) => page.getByRole('region', { name: new RegExp(`^Condición ${n}:`) });
  const row = (fileName: string): Locator => documents().locator('tr', { hasText: fileName });
  const lead = () => page.goto(`${service.base}/console/leads/${leadId}`);

  async function review(fileName: string, act: (row: Locator) => Promise<void>, notice: string) {
    await lead();
    await act(row(fileName));
    await page.waitForURL(new RegExp(`/console/leads/${leadId}\\?notice=[a-z-]+#documentos$`));
    await page.getByRole('status').filter({ hasText: notice }).waitFor();
  }

  test('an officer opens the dealer’s documents, rejects one with a reason, then accepts the new one', async () => {
    const t = service.testApp;
    await lead();
    await page.getByRole('combobox', { name: 'Decisión', exact: true }).selectOption({ label: 'Condicionada' });
    await page.getByLabel('Condición 1', { exact: true }).selectOption({ label: 'Comprobante de ingresos' });
    await page.getByLabel('Detalle de la condición 1', { exact: true }).fill('Últimos 3 recibos de nómina');
    await page.getByLabel('Condición 2', { exact: true }).selectOption({ label: 'Identificación oficial' });
    await page.getByLabel('Detalle de la condición 2', { exact: true }).fill('INE vigente por ambos lados');
    await page.getByRole('button', { name: 'Guardar decisión' }).click();
    await page.waitForURL(new RegExp(`/console/leads/${leadId}#decision-credito$`));
    assert.match(await condition(1).innerText(), /Estado de la condición: Pendiente/);

    const [income, id] = await conditions(t, leadId);
    const pdf = await plainPdf();
    await upload(t, leadId, income!.id, 'PROOF_OF_INCOME', 'recibos-nomina.pdf', pdf);
    await upload(t, leadId, id!.id, 'OFFICIAL_ID', 'ine-frente.png', solidPng(320, 200, [200, 40, 40]));
    await lead();
    assert.match(await condition(1).innerText(), /Estado de la condición: Recibido[\s\S]*recibos-nomina\.pdf/);
    assert.match(await row('ine-frente.png').innerText(), /Identificación oficial[\s\S]*Recibido/);
    await assertAccessible(page, 'lead page with documents to review');
    assert.equal(await documentReads(t, leadId), 0, 'nothing is read before it is opened');

    // The PDF downloads; the photo opens on the page.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row('recibos-nomina.pdf').getByRole('link', { name: 'Descargar recibos-nomina.pdf' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'recibos-nomina.pdf');
    await row('ine-frente.png').getByText('Ver la imagen').click();
    const photo = row('ine-frente.png').getByRole('img', { name: 'Imagen del documento ine-frente.png' });
    await photo.waitFor();
    await page.waitForFunction((img) => (img as HTMLImageElement).naturalWidth === 320, await photo.elementHandle());
    assert.equal(await documentReads(t, leadId), 2);

    await review(
      'ine-frente.png',
      async (r) => {
        await r.getByLabel('Motivo del rechazo').selectOption({ label: 'Ilegible' });
        await r.getByRole('button', { name: 'Rechazar ine-frente.png' }).click();
      },
      'Documento rechazado.',
    );
    assert.match(await row('ine-frente.png').innerText(), /Rechazado[\s\S]*Ilegible/);
    assert.match(await condition(2).innerText(), /Estado de la condición: Rechazado/);

    await upload(t, leadId, id!.id, 'OFFICIAL_ID', 'ine-legible.png', solidPng(320, 200, [30, 90, 160]));
    await review(
      'ine-legible.png',
      (r) => r.getByRole('button', { name: 'Aceptar ine-legible.png' }).click(),
      'Documento aceptado.',
    );
    assert.match(await row('ine-legible.png').innerText(), /Aceptado/);
    assert.match(await condition(2).innerText(), /Estado de la condición: Aceptado/);
    assert.equal(await row('ine-legible.png').getByRole('button').count(), 0, 'a reviewed document has no forms');
    await assertAccessible(page, 'lead page after the reviews');
    await row('ine-legible.png').getByText('Ver la imagen').click();
    await row('ine-legible.png').getByRole('img').waitFor();
    await screenshot(page, 'console-lead-documents', { phone: true });

    assert.deepEqual(
      (await conditions(t, leadId)).map((c) => c.status),
      ['RECEIVED', 'ACCEPTED'],
    );
  });
});
