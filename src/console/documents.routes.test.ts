/**
 * The documents on a lead's console page: each condition with its status and documents (the ones of
 * conditions no longer asked under their own heading), the review by an officer (accept; reject with a
 * reason; refusals in Spanish on the lead page), an analyst who reads but cannot review, and a document's
 * bytes served inline with the headers that keep them inert, audited.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { consoleClient, consoleOperator, type ConsoleClient } from '../../test/console-client.ts';
import { documentFixture, type DocumentFixture } from '../../test/document-fixture.ts';
import { setOutcome } from '../../test/outcome-fixture.ts';
import { plainPdf, png } from '../../test/document-files.ts';

const password = 'correct horse battery';

let t: TestApp;
let f: DocumentFixture;
let officer: ConsoleClient;
let analyst: ConsoleClient;

async function signedIn(role: 'officer' | 'analyst'): Promise<ConsoleClient> {
  const client = consoleClient(t.app);
  const res = await client.signIn(await consoleOperator(t.app, t.admin, role, password), password);
  assert.equal(res.statusCode, 303, show(res));
  return client;
}

async function uploaded(leadId: string, conditionId: string, fileName: string, data: Buffer, type?: string) {
  const res = await f.upload(leadId, conditionId, { fileName, data }, { type });
  assert.equal(res.statusCode, 201, show(res));
  return res.json() as { id: string };
}

/** A conditioned lead with a PDF answering its first condition and nothing yet for the second. */
async function leadWithOneDocument() {
  const { leadId, conditionIds } = await f.conditionedLead();
  const pdf = await plainPdf();
  const document = await uploaded(leadId, conditionIds[0]!, 'Recibo <enero> nómina.pdf', pdf);
  return { leadId, conditionIds, document, pdf };
}

const leadUrl = (leadId: string) => `/console/leads/${leadId}`;
const reviewUrl = (leadId: string, documentId: string) => `/console/leads/${leadId}/documents/${documentId}/review`;

/** The page a review's redirect lands on. */
async function landing(client: ConsoleClient, res: { statusCode: number; headers: Record<string, unknown> }) {
  assert.equal(res.statusCode, 303);
  const location = String(res.headers.location);
  assert.match(location, /^\/console\/leads\/[0-9a-f-]+\?notice=[a-z-]+#documentos$/);
  const page = await client.get(location.replace(/#.*$/, ''));
  assert.equal(page.statusCode, 200, show(page));
  return page.body;
}

/** The text of the table row of a document. */
const rowOf = (body: string, documentId: string) => {
  const row = new RegExp(`<tr id="documento-${documentId}">([\\s\\S]*?)</tr>`).exec(body)?.[1];
  assert.ok(row, `no row for document ${documentId}`);
  return row;
};

describe('operator console: the documents of a lead’s conditions', () => {
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    f = await documentFixture(t);
    officer = await signedIn('officer');
    analyst = await signedIn('analyst');
  });
  after(() => t.close());

  listTests();
  reviewTests();
  accessTests();
  contentTests();
});

function listTests(): void {
  test('the lead page lists each condition with its status and its documents', async () => {
    const { leadId, conditionIds, document } = await leadWithOneDocument();
    const image = await uploaded(leadId, conditionIds[0]!, 'recibo-febrero.png', png(), 'OTHER');
    const page = await officer.get(leadUrl(leadId));
    assert.equal(page.statusCode, 200, show(page));
    const body = page.body;
    assert.match(body, /<h2 id="documentos">Documentos de las condiciones<\/h2>/);
    assert.match(body, /Condición 1: Comprobante de ingresos<\/h3><p>Últimos 3 recibos de nómina<\/p>/);
    assert.match(body, /nómina<\/p>\s*<p>Estado de la condición: <strong>Recibido<\/strong>/);
    assert.match(body, /Condición 2: Identificación oficial<\/h3>[\s\S]*?<strong>Pendiente<\/strong>/);
    assert.match(body, /El socio aún no ha enviado documentos para esta condición\./);
    const pdfRow = rowOf(body, document.id);
    assert.match(pdfRow, /<td>Comprobante de ingresos<\/td>/);
    // The partner's file name is text, never markup.
    assert.match(pdfRow, /Recibo &lt;enero&gt; nómina\.pdf<\/a>/);
    assert.match(pdfRow, /PDF<\/span>/);
    assert.match(pdfRow, /<td>[\d.,]+ k?B<\/td>/);
    assert.match(pdfRow, /<time datetime="[^"]+">/);
    assert.match(pdfRow, /<strong>Recibido<\/strong>/);
    assert.match(pdfRow, new RegExp(`href="/console/leads/${leadId}/documents/${document.id}"`));
    assert.doesNotMatch(pdfRow, /<img/, 'a PDF is a link, never embedded');
    const imageRow = rowOf(body, image.id);
    assert.match(imageRow, /<td>Otro<\/td>/);
    assert.match(imageRow, /Imagen PNG/);
    assert.match(imageRow, /<summary>Ver la imagen<\/summary>\s*<img src="\/console\/leads\/[^"]+" alt="[^"]+"/);
    // An officer reviews each received document: "Aceptar", and "Rechazar" with a labelled reason.
    for (const id of [document.id, image.id]) {
      const row = rowOf(body, id);
      assert.match(row, new RegExp(`<form method="post" action="${reviewUrl(leadId, id)}">`));
      assert.match(row, />Aceptar<\/button>/);
      assert.match(row, new RegExp(`<label for="motivo-${id}">Motivo del rechazo</label>`));
      assert.match(row, new RegExp(`<select id="motivo-${id}" name="rejectionReason" required>`));
      for (const reason of ['Ilegible', 'Vencido', 'Documento equivocado', 'Datos no coinciden', 'Incompleto']) {
        assert.match(row, new RegExp(`>${reason}</option>`));
      }
      assert.match(row, />Posible alteración<\/option><option value="OTHER">Otro<\/option>/);
      assert.match(row, />Rechazar<\/button>/);
    }
  });

  test('documents of conditions no longer asked are listed under their own heading', async () => {
    const { leadId, document } = await leadWithOneDocument();
    const changed = { status: 'CONDITIONED', conditions: [{ code: 'CO_SIGNER', description: 'Aval con INE' }] };
    assert.equal((await setOutcome(t, leadId, changed)).statusCode, 200);
    const body = (await officer.get(leadUrl(leadId))).body;
    assert.match(body, /Condición 1: Aval<\/h3><p>Aval con INE<\/p>/);
    const earlier = body.slice(
      body.indexOf('<h3 id="documentos-anteriores">Documentos de condiciones anteriores</h3>'),
    );
    assert.ok(earlier.length < body.length, 'the heading of earlier conditions');
    assert.match(rowOf(earlier, document.id), /Recibo &lt;enero&gt;/);
    assert.doesNotMatch(body.slice(0, body.indexOf('documentos-anteriores')), new RegExp(document.id));
  });

  test('a lead whose decision asks for nothing has no documents section', async () => {
    const leadId = await f.copy();
    const body = (await officer.get(leadUrl(leadId))).body;
    assert.doesNotMatch(body, /Documentos de las condiciones/);
  });
}

function reviewTests(): void {
  test('an officer accepts one document and rejects another with a reason', async () => {
    const { leadId, conditionIds, document } = await leadWithOneDocument();
    const id = await uploaded(leadId, conditionIds[1]!, 'ine.png', png(), 'OFFICIAL_ID');
    await officer.get(leadUrl(leadId));
    const accepted = await landing(officer, await officer.post(reviewUrl(leadId, document.id), { status: 'ACCEPTED' }));
    assert.match(accepted, /<p class="notice ok" role="status">Documento aceptado\.<\/p>/);
    assert.match(rowOf(accepted, document.id), /<strong>Aceptado<\/strong>/);
    assert.doesNotMatch(rowOf(accepted, document.id), /<button/, 'a reviewed document has no review forms');
    assert.match(accepted, /Comprobante de ingresos<\/h3>[\s\S]*?Estado de la condición: <strong>Aceptado<\/strong>/);

    const rejected = await landing(
      officer,
      await officer.post(reviewUrl(leadId, id.id), { status: 'REJECTED', rejectionReason: 'DATA_MISMATCH' }),
    );
    assert.match(rejected, /<p class="notice ok" role="status">Documento rechazado\.<\/p>/);
    const row = rowOf(rejected, id.id);
    assert.match(row, /<strong>Rechazado<\/strong>/);
    assert.match(row, /<td>Datos no coinciden<\/td>/);
    assert.match(rejected, /Identificación oficial<\/h3>[\s\S]*?Estado de la condición: <strong>Rechazado<\/strong>/);
    assert.deepEqual(
      (await f.conditions(leadId)).map((c) => c.status),
      ['ACCEPTED', 'REJECTED'],
    );
  });

  test('a refused review is explained in Spanish on the lead page and changes nothing', async () => {
    const { leadId, document } = await leadWithOneDocument();
    await officer.get(leadUrl(leadId));
    const noReason = await landing(officer, await officer.post(reviewUrl(leadId, document.id), { status: 'REJECTED' }));
    assert.match(noReason, /role="alert">No se rechazó el documento: elige el motivo del rechazo\.<\/p>/);
    const empty = { status: 'REJECTED', rejectionReason: '' };
    assert.match(await landing(officer, await officer.post(reviewUrl(leadId, document.id), empty)), /elige el motivo/);
    const both = { status: 'ACCEPTED', rejectionReason: 'EXPIRED' };
    assert.match(
      await landing(officer, await officer.post(reviewUrl(leadId, document.id), both)),
      /role="alert">No se aceptó el documento: un documento aceptado no lleva motivo de rechazo\./,
    );
    assert.match(rowOf(noReason, document.id), /<strong>Recibido<\/strong>/);

    await landing(officer, await officer.post(reviewUrl(leadId, document.id), { status: 'ACCEPTED' }));
    const again = { status: 'REJECTED', rejectionReason: 'ILLEGIBLE' };
    const twice = await landing(officer, await officer.post(reviewUrl(leadId, document.id), again));
    assert.match(twice, /role="alert">No se guardó la revisión: el documento ya fue revisado\./);
    assert.match(rowOf(twice, document.id), /<strong>Aceptado<\/strong>/);
    for (const body of [noReason, twice]) assert.doesNotMatch(body, /is required|already reviewed|not taken/);

    const unknownReason = await officer.post(reviewUrl(leadId, document.id), {
      status: 'REJECTED',
      rejectionReason: 'X',
    });
    assert.equal(unknownReason.statusCode, 400, show(unknownReason));
    assert.match(unknownReason.body, /Datos no válidos/);
  });
}

function accessTests(): void {
  test('an analyst sees the documents without review forms; a forged review is 403 and changes nothing', async () => {
    const { leadId, document } = await leadWithOneDocument();
    const page = await analyst.get(leadUrl(leadId));
    assert.equal(page.statusCode, 200, show(page));
    const row = rowOf(page.body, document.id);
    assert.match(row, /Recibo &lt;enero&gt;/);
    assert.match(row, new RegExp(`href="/console/leads/${leadId}/documents/${document.id}"`));
    assert.doesNotMatch(page.body, /\/review"|Aceptar|Rechazar<\/button>|name="rejectionReason"/);

    const forged = await analyst.post(reviewUrl(leadId, document.id), { status: 'ACCEPTED' });
    assert.equal(forged.statusCode, 403, show(forged));
    assert.match(forged.body, /Acceso denegado/);
    assert.deepEqual(
      (await f.conditions(leadId)).map((c) => c.status),
      ['RECEIVED', 'PENDING'],
    );
    const content = await analyst.get(`/console/leads/${leadId}/documents/${document.id}`);
    assert.equal(content.statusCode, 200, 'an analyst opens documents');
  });

  test('a review without the form’s token is 403 and changes nothing', async () => {
    const { leadId, document } = await leadWithOneDocument();
    const res = await officer.post(reviewUrl(leadId, document.id), { status: 'ACCEPTED', _csrf: 'forged' });
    assert.equal(res.statusCode, 403, show(res));
    assert.equal((await f.conditions(leadId))[0]!.status, 'RECEIVED');
  });
}

function contentTests(): void {
  test('a document opens inline with the headers that keep it inert, and the read is audited', async () => {
    const { leadId, document, pdf } = await leadWithOneDocument();
    const res = await analyst.get(`/console/leads/${leadId}/documents/${document.id}`);
    assert.equal(res.statusCode, 200, show(res));
    assert.ok(res.rawPayload.equals(pdf), 'the bytes as uploaded');
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.equal(res.headers['content-length'], String(pdf.length));
    assert.equal(
      res.headers['content-disposition'],
      `inline; filename="Recibo <enero> n_mina.pdf"; filename*=UTF-8''Recibo%20%3Cenero%3E%20n%C3%B3mina.pdf`,
    );
    assert.equal(res.headers['content-security-policy'], 'sandbox');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['cache-control'], 'no-store');
    const audit = await t.app.inject({ method: 'GET', url: '/admin/audit?limit=200', headers: t.admin });
    const reads = (audit.json().items as { action: string; leadId: string }[]).filter(
      (r) => r.action === 'document_read' && r.leadId === leadId,
    );
    assert.equal(reads.length, 1, show(audit));
  });

  test('an unknown document, or another lead’s, is a 404 page', async () => {
    const { leadId, document } = await leadWithOneDocument();
    const other = await f.conditionedLead();
    for (const url of [
      `/console/leads/${leadId}/documents/${crypto.randomUUID()}`,
      `/console/leads/${other.leadId}/documents/${document.id}`,
    ]) {
      const res = await officer.get(url);
      assert.equal(res.statusCode, 404, show(res));
      assert.match(res.headers['content-type'] as string, /^text\/html/);
      assert.match(res.body, /No encontrado/);
    }
    await officer.get(leadUrl(leadId));
    const review = await officer.post(reviewUrl(other.leadId, document.id), { status: 'ACCEPTED' });
    assert.equal(review.statusCode, 404, show(review));
    assert.equal((await f.conditions(leadId))[0]!.status, 'RECEIVED');
  });
}
