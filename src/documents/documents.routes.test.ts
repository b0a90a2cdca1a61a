/**
 * The partner's upload (docs/api.md, "Documents"): each content type, each refusal and its code, the
 * limits, tenancy and idempotent retries. A refused upload keeps nothing: no document, no stored bytes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { documentFixture, type DocumentFixture } from '../../test/document-fixture.ts';
import { setOutcome, bodies } from '../../test/outcome-fixture.ts';
import {
  encryptedPdf,
  escapedNamePdf,
  html,
  jpeg,
  multipart,
  plainPdf,
  png,
  scriptPdf,
} from '../../test/document-files.ts';

let t: TestApp;
let f: DocumentFixture;

/** Rows of stored objects and documents: a refused upload must leave both as they were. */
async function storedCounts() {
  const { rows } = await t.database.db.query<{ chunks: string; orphans: string }>(
    `select (select count(*) from document_chunks) as chunks, (select count(*) from document_orphans) as orphans`,
  );
  return rows[0];
}

async function refusedLeavesNothing(leadId: string, send: () => Promise<{ statusCode: number; json(): unknown }>) {
  const before = await storedCounts();
  const res = await send();
  const list = await t.app.inject({
    method: 'GET',
    url: `${api}/leads/${leadId}/documents`,
    headers: t.partner.headers,
  });
  assert.deepEqual(list.json(), { items: [] });
  assert.deepEqual(await storedCounts(), before, 'no bytes kept');
  return res as Awaited<ReturnType<typeof t.app.inject>>;
}

function contentTests() {
  test('a PDF, a JPEG and a PNG are 201 with the type their bytes show, whatever the part declares', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const files = [
      { fileName: 'recibos.pdf', data: await plainPdf(), declared: 'image/png', expected: 'application/pdf' },
      { fileName: 'ine.png', data: jpeg(), declared: 'image/png', expected: 'image/jpeg' },
      { fileName: 'comprobante.jpg', data: png(), declared: 'application/pdf', expected: 'image/png' },
    ];
    for (const file of files) {
      const res = await f.upload(leadId, conditionIds[0]!, { ...file, contentType: file.declared });
      assert.equal(res.statusCode, 201, show(res));
      const document = res.json();
      assert.equal(document.contentType, file.expected);
      assert.deepEqual(
        { ...document, id: undefined, uploadedAt: undefined },
        {
          id: undefined,
          conditionId: conditionIds[0],
          type: 'PROOF_OF_INCOME',
          fileName: file.fileName,
          contentType: file.expected,
          size: file.data.length,
          sha256: createHash('sha256').update(file.data).digest('hex'),
          status: 'RECEIVED',
          rejectionReason: null,
          uploadedAt: undefined,
          reviewedAt: null,
        },
      );
      assert.equal(res.headers.location, `${api}/leads/${leadId}/documents/${document.id}`);
      const read = await t.app.inject({
        method: 'GET',
        url: res.headers.location as string,
        headers: t.partner.headers,
      });
      assert.deepEqual(read.json(), document);
    }
    const list = await t.app.inject({
      method: 'GET',
      url: `${api}/leads/${leadId}/documents`,
      headers: t.partner.headers,
    });
    assert.deepEqual(
      list.json().items.map((d: { fileName: string }) => d.fileName),
      files.map((x) => x.fileName),
      'oldest first',
    );
  });

  const refusals: [string, () => Promise<Buffer>, string][] = [
    ['bytes of no accepted type (an HTML page named .pdf)', async () => html(), 'UNSUPPORTED_CONTENT'],
    ['an encrypted PDF', encryptedPdf, 'ENCRYPTED_PDF'],
    ['a PDF with a script in a plain object', () => scriptPdf(false), 'ACTIVE_CONTENT'],
    ['a PDF with a script in a compressed object stream', () => scriptPdf(true), 'ACTIVE_CONTENT'],
    ['a PDF naming /J#61vaScript', escapedNamePdf, 'ACTIVE_CONTENT'],
    ['bytes that only start like a PDF', async () => Buffer.from('%PDF-1.7\nnot a document'), 'UNREADABLE_PDF'],
  ];
  for (const [what, make, reason] of refusals) {
    test(`${what} is 415 / 4150 with reason ${reason}, and nothing is kept`, async () => {
      const { leadId, conditionIds } = await f.conditionedLead();
      const data = await make();
      const res = await refusedLeavesNothing(leadId, () =>
        f.upload(leadId, conditionIds[0]!, { fileName: 'recibo.pdf', data, contentType: 'application/pdf' }),
      );
      assert.equal(res.statusCode, 415, show(res));
      assert.deepEqual(
        { code: res.json().code, additionalData: res.json().additionalData },
        { code: 4150, additionalData: { reason } },
      );
    });
  }

  test('a multipart body cut off before its end is 400 / 40015 on body, and nothing is kept', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const form = multipart([
      { name: 'conditionId', value: conditionIds[0]! },
      { name: 'type', value: 'OTHER' },
      { name: 'file', fileName: 'ine.png', contentType: 'image/png', data: png() },
    ]);
    const res = await refusedLeavesNothing(leadId, () =>
      t.app.inject({
        method: 'POST',
        url: `${api}/leads/${leadId}/documents`,
        payload: form.payload.subarray(0, form.payload.length - 40),
        headers: { ...t.partner.headers, ...form.headers },
      }),
    );
    assert.equal(res.statusCode, 400, show(res));
    assert.deepEqual(res.json().additionalData.errors, [
      { field: 'body', errorDetail: 'is not a complete multipart/form-data body' },
    ]);
  });

  test('a body that is not multipart is 415 / 4150', async () => {
    const { leadId } = await f.conditionedLead();
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/leads/${leadId}/documents`,
      headers: t.partner.headers,
      payload: { conditionId: 'x' },
    });
    assert.equal(res.statusCode, 415, show(res));
    assert.equal(res.json().code, 4150);
  });
}

function fieldTests() {
  test('an empty or missing file, an unknown type, no conditionId: 400 / 40015, each listed', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const empty = await refusedLeavesNothing(leadId, () =>
      f.upload(leadId, conditionIds[0]!, { fileName: 'vacio.pdf', data: Buffer.alloc(0) }, { type: 'PAYSLIP' }),
    );
    assert.equal(empty.statusCode, 400, show(empty));
    assert.deepEqual(
      empty
        .json()
        .additionalData.errors.map((e: { field: string }) => e.field)
        .sort(),
      ['file', 'type'],
    );
    const noFile = multipart([{ name: 'type', value: 'OTHER' }]);
    const missing = await refusedLeavesNothing(leadId, () =>
      t.app.inject({
        method: 'POST',
        url: `${api}/leads/${leadId}/documents`,
        payload: noFile.payload,
        headers: { ...t.partner.headers, ...noFile.headers },
      }),
    );
    assert.equal(missing.statusCode, 400, show(missing));
    assert.deepEqual(
      missing
        .json()
        .additionalData.errors.map((e: { field: string }) => e.field)
        .sort(),
      ['conditionId', 'file'],
    );
  });

  test('another lead’s conditionId is 400 on conditionId; a long file name on file', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const other = await f.conditionedLead();
    const res = await refusedLeavesNothing(leadId, async () =>
      f.upload(
        leadId,
        other.conditionIds[1]!.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
        {
          fileName: 'ine.png',
          data: png(),
        },
      ),
    );
    assert.equal(res.statusCode, 400, show(res));
    assert.deepEqual(res.json().additionalData.errors, [
      { field: 'conditionId', errorDetail: 'is not a condition of the lead' },
    ]);
    const long = await f.upload(leadId, conditionIds[0]!, { fileName: `${'a'.repeat(197)}.png`, data: png() });
    assert.equal(long.statusCode, 400, show(long));
    assert.equal(long.json().additionalData.errors[0].field, 'file');
  });

  test('fields after the file are read as well as before it', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const form = multipart([
      { name: 'file', fileName: 'ine.jpg', contentType: 'image/jpeg', data: jpeg() },
      { name: 'type', value: 'OFFICIAL_ID' },
      { name: 'conditionId', value: conditionIds[1]! },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/leads/${leadId}/documents`,
      payload: form.payload,
      headers: { ...t.partner.headers, ...form.headers },
    });
    assert.equal(res.statusCode, 201, show(res));
    assert.equal(res.json().type, 'OFFICIAL_ID');
  });
}

function limitTests() {
  test('a file over 10 MiB is 413 / 4130, refused while it arrives; exactly 10 MiB is taken', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const limit = 10 * 1024 * 1024;
    const tooBig = await refusedLeavesNothing(leadId, () =>
      f.upload(leadId, conditionIds[0]!, { fileName: 'grande.png', data: Buffer.concat([png(), Buffer.alloc(limit)]) }),
    );
    assert.equal(tooBig.statusCode, 413, show(tooBig));
    assert.equal(tooBig.json().code, 4130);
    const exact = Buffer.concat([png(), Buffer.alloc(limit - png().length)]);
    const res = await f.upload(leadId, conditionIds[0]!, { fileName: 'justo.png', data: exact });
    assert.equal(res.statusCode, 201, show(res));
    assert.equal(res.json().size, limit);
  });

  test('a lead not CONDITIONED is 409 / 4093 NOT_CONDITIONED, whatever conditionId says', async () => {
    const leadId = await f.copy();
    const none = await f.upload(leadId, 'cond_x', { fileName: 'a.png', data: png() });
    assert.equal(none.statusCode, 409, show(none));
    assert.deepEqual(none.json().additionalData, { reason: 'NOT_CONDITIONED' });
    const { leadId: approved, conditionIds } = await f.conditionedLead();
    assert.equal((await setOutcome(t, approved, bodies.APPROVED)).statusCode, 200);
    const res = await f.upload(approved, conditionIds[0]!, { fileName: 'a.png', data: png() });
    assert.equal(res.statusCode, 409, show(res));
    assert.deepEqual(
      { code: res.json().code, message: res.json().message },
      { code: 4093, message: 'Documents not requested' },
    );
  });

  test('the eleventh document of a condition is 409 LIMIT_REACHED', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    for (let i = 0; i < 10; i++) {
      assert.equal((await f.upload(leadId, conditionIds[0]!, { fileName: `p${i}.png`, data: png() })).statusCode, 201);
    }
    const res = await f.upload(leadId, conditionIds[0]!, { fileName: 'p10.png', data: png() });
    assert.equal(res.statusCode, 409, show(res));
    assert.deepEqual(res.json().additionalData, { reason: 'LIMIT_REACHED' });
    const other = await f.upload(
      leadId,
      conditionIds[1]!,
      { fileName: 'ine.png', data: png() },
      { type: 'OFFICIAL_ID' },
    );
    assert.equal(other.statusCode, 201, 'the limit is per condition');
  });

  test('another company’s lead is 404 / 4040 on the upload and the list; its document too', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const mine = await f.upload(leadId, conditionIds[0]!, { fileName: 'a.png', data: png() });
    const stranger = await t.newPartner();
    const res = await f.upload(
      leadId,
      conditionIds[0]!,
      { fileName: 'a.png', data: png() },
      { headers: stranger.headers },
    );
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(res.json().code, 4040);
    const list = await t.app.inject({
      method: 'GET',
      url: `${api}/leads/${leadId}/documents`,
      headers: stranger.headers,
    });
    assert.equal(list.statusCode, 404);
    assert.equal(list.json().code, 4040);
    const one = await t.app.inject({
      method: 'GET',
      url: `${api}/leads/${leadId}/documents/${mine.json().id}`,
      headers: stranger.headers,
    });
    assert.equal(one.statusCode, 404);
    assert.equal(one.json().code, 4040, 'the lead is checked first');
    const unknown = await t.app.inject({
      method: 'GET',
      url: `${api}/leads/${leadId}/documents/${randomUUID()}`,
      headers: t.partner.headers,
    });
    assert.deepEqual(
      { code: unknown.json().code, message: unknown.json().message },
      { code: 4045, message: 'Document not found' },
    );
  });
}

function idempotencyTests() {
  test('one key with the same fields and bytes replays the first document; other bytes 409 / 4091', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const data = await plainPdf();
    const headers = { 'idempotency-key': `doc-${leadId}` };
    const first = await f.upload(leadId, conditionIds[0]!, { fileName: 'r.pdf', data }, { headers, boundary: 'aaaa' });
    assert.equal(first.statusCode, 201, show(first));
    const before = await storedCounts();
    const again = await f.upload(
      leadId,
      conditionIds[0]!,
      { fileName: 'r.pdf', data },
      { headers, boundary: 'bbbbbb' },
    );
    assert.equal(again.statusCode, 201, show(again));
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json(), first.json());
    assert.deepEqual(await storedCounts(), before, 'the retry kept no second copy');
    const other = await f.upload(
      leadId,
      conditionIds[0]!,
      { fileName: 'r.pdf', data: await plainPdf(10) },
      { headers },
    );
    assert.equal(other.statusCode, 409, show(other));
    assert.equal(other.json().code, 4091);
    const list = await t.app.inject({
      method: 'GET',
      url: `${api}/leads/${leadId}/documents`,
      headers: t.partner.headers,
    });
    assert.equal(list.json().items.length, 1);
  });
}

describe('uploading documents for conditions', () => {
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    f = await documentFixture(t);
  });
  after(() => t.close());
  contentTests();
  fieldTests();
  limitTests();
  idempotencyTests();
});
