/**
 * The lender's side of documents (docs/lender-api.md, "Documents"): the list, the bytes with their
 * headers (audited), the review and its rules, each condition's status through upload → reject →
 * upload → accept, a new CONDITIONED decision keeping unchanged conditions, the signed events (no file
 * name, no digest), erasure (410, bytes gone), key rotation over documents, and the sandbox's names.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { documentFixture, twoConditions, type DocumentFixture } from '../../test/document-fixture.ts';
import { setOutcome } from '../../test/outcome-fixture.ts';
import { bearer, operatorKey } from '../../test/lender-fixture.ts';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.ts';
import { plainPdf, png } from '../../test/document-files.ts';

let t: TestApp;
let f: DocumentFixture;
let receiver: Receiver;
let secret: string;

const content = (leadId: string, documentId: string, headers = t.admin) =>
  t.app.inject({ method: 'GET', url: `/admin/leads/${leadId}/documents/${documentId}/content`, headers });

async function uploaded(leadId: string, conditionId: string, fileName = 'recibo.png', data: Buffer = png()) {
  const res = await f.upload(leadId, conditionId, { fileName, data });
  assert.equal(res.statusCode, 201, show(res));
  return res.json() as { id: string; sha256: string; fileName: string };
}

function readTests() {
  test('the lender lists a lead’s documents and reads the bytes with the headers that keep them inert', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const data = await plainPdf();
    const document = await uploaded(leadId, conditionIds[0]!, 'Recibo de nómina; enero.pdf', data);
    const analyst = bearer((await operatorKey(t, 'analyst')).key);
    const list = await t.app.inject({ method: 'GET', url: `/admin/leads/${leadId}/documents`, headers: analyst });
    assert.equal(list.statusCode, 200, show(list));
    assert.deepEqual(
      list.json().items.map((d: { id: string }) => d.id),
      [document.id],
    );
    const res = await content(leadId, document.id, analyst);
    assert.equal(res.statusCode, 200, show(res));
    assert.ok(res.rawPayload.equals(data), 'the bytes as uploaded');
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.equal(
      res.headers['content-disposition'],
      `attachment; filename="Recibo de n_mina_ enero.pdf"; filename*=UTF-8''Recibo%20de%20n%C3%B3mina%3B%20enero.pdf`,
    );
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['content-security-policy'], 'sandbox');
    const audit = await t.app.inject({ method: 'GET', url: '/admin/audit?limit=200', headers: t.admin });
    assert.ok(
      audit
        .json()
        .items.some((r: { action: string; leadId: string }) => r.action === 'document_read' && r.leadId === leadId),
      show(audit),
    );
  });

  test('an unknown document is 404 / 4045; another lead’s document too', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const other = await f.conditionedLead();
    const document = await uploaded(leadId, conditionIds[0]!);
    const res = await content(other.leadId, document.id);
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().code, 4045);
    const review = await f.review(other.leadId, document.id, { status: 'ACCEPTED' });
    assert.equal(review.json().code, 4045);
  });
}

function reviewTests() {
  test('a reason only with REJECTED; an analyst is 403; a second review 409 / 4094', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const document = await uploaded(leadId, conditionIds[0]!);
    const noReason = await f.review(leadId, document.id, { status: 'REJECTED' });
    assert.equal(noReason.statusCode, 400, show(noReason));
    assert.equal(noReason.json().additionalData.errors[0].field, 'rejectionReason');
    const extra = await f.review(leadId, document.id, { status: 'ACCEPTED', rejectionReason: 'ILLEGIBLE' });
    assert.equal(extra.statusCode, 400, show(extra));
    const analyst = bearer((await operatorKey(t, 'analyst')).key);
    const forbidden = await f.review(leadId, document.id, { status: 'ACCEPTED' }, analyst);
    assert.equal(forbidden.statusCode, 403);
    assert.equal(forbidden.json().code, 4030);
    const officer = bearer((await operatorKey(t, 'officer')).key);
    const done = await f.review(leadId, document.id, { status: 'REJECTED', rejectionReason: 'EXPIRED' }, officer);
    assert.equal(done.statusCode, 200, show(done));
    assert.equal(done.json().status, 'REJECTED');
    assert.equal(done.json().rejectionReason, 'EXPIRED');
    assert.ok(done.json().reviewedAt);
    const again = await f.review(leadId, document.id, { status: 'ACCEPTED' }, officer);
    assert.equal(again.statusCode, 409);
    assert.deepEqual(
      { code: again.json().code, message: again.json().message },
      { code: 4094, message: 'Document already reviewed' },
    );
  });

  test('a condition goes PENDING → RECEIVED → REJECTED → RECEIVED → ACCEPTED; then uploads are 409', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const statusOf = async () => (await f.conditions(leadId)).map((c) => c.status);
    assert.deepEqual(await statusOf(), ['PENDING', 'PENDING']);
    const first = await uploaded(leadId, conditionIds[0]!);
    assert.deepEqual(await statusOf(), ['RECEIVED', 'PENDING']);
    await f.review(leadId, first.id, { status: 'REJECTED', rejectionReason: 'ILLEGIBLE' });
    assert.deepEqual(await statusOf(), ['REJECTED', 'PENDING']);
    const second = await uploaded(leadId, conditionIds[0]!);
    assert.deepEqual(await statusOf(), ['RECEIVED', 'PENDING']);
    await f.review(leadId, second.id, { status: 'ACCEPTED' });
    assert.deepEqual(await statusOf(), ['ACCEPTED', 'PENDING']);
    const lender = await t.app.inject({ method: 'GET', url: `/admin/leads/${leadId}`, headers: t.admin });
    assert.deepEqual(
      lender.json().outcome.conditions.map((c: { status: string }) => c.status),
      ['ACCEPTED', 'PENDING'],
      'the lender’s view shows the same',
    );
    const late = await f.upload(leadId, conditionIds[0]!, { fileName: 'otro.png', data: png() });
    assert.equal(late.statusCode, 409);
    assert.deepEqual(late.json().additionalData, { reason: 'CONDITION_ACCEPTED' });
  });

  test('a new CONDITIONED decision keeps unchanged conditions and their documents', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const kept = await uploaded(leadId, conditionIds[0]!);
    await uploaded(leadId, conditionIds[1]!);
    const res = await setOutcome(t, leadId, {
      status: 'CONDITIONED',
      conditions: [twoConditions.conditions[0], { code: 'PROOF_OF_ADDRESS', description: 'Recibo de luz' }],
    });
    assert.equal(res.statusCode, 200, show(res));
    const conditions = await f.conditions(leadId);
    assert.equal(conditions[0]!.id, conditionIds[0], 'the unchanged condition keeps its id');
    assert.deepEqual(
      conditions.map((c) => c.status),
      ['RECEIVED', 'PENDING'],
    );
    assert.notEqual(conditions[1]!.id, conditionIds[1]);
    const list = await t.app.inject({
      method: 'GET',
      url: `${api}/leads/${leadId}/documents`,
      headers: t.partner.headers,
    });
    assert.equal(list.json().items.length, 2, 'the dropped condition’s document is still listed');
    assert.equal(list.json().items[0].id, kept.id);
    const dropped = await f.upload(leadId, conditionIds[1]!, { fileName: 'x.png', data: png() });
    assert.equal(dropped.statusCode, 400, 'a dropped condition takes no more documents');
  });
}

function eventTests() {
  test('lead.document_received and lead.document_reviewed are signed and carry no file name or digest', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const fileName = `nomina-${randomBytes(4).toString('hex')}.png`;
    const document = await uploaded(leadId, conditionIds[0]!, fileName);
    await f.review(leadId, document.id, { status: 'REJECTED', rejectionReason: 'DATA_MISMATCH' });
    await t.container.webhooks.worker.runUntilIdle();
    const mine = receiver.received.filter((r) => r.body.includes(document.id));
    const verifier = new Webhook(secret);
    type Event = { type: string; data: { leadId: string; document: Record<string, unknown>; condition: object } };
    const events = mine.map((r) => verifier.verify(r.body, r.headers as Record<string, string>) as Event);
    assert.deepEqual(
      events.map((e) => [e.type, e.data.condition]),
      [
        ['lead.document_received', { id: conditionIds[0], status: 'RECEIVED' }],
        ['lead.document_reviewed', { id: conditionIds[0], status: 'REJECTED' }],
      ],
    );
    assert.deepEqual(Object.keys(events[1]!.data.document).sort(), [
      'conditionId',
      'contentType',
      'id',
      'rejectionReason',
      'reviewedAt',
      'size',
      'status',
      'type',
      'uploadedAt',
    ]);
    for (const r of mine) {
      assert.ok(!r.body.includes(fileName) && !r.body.includes(document.sha256), 'no file name or digest');
    }
    assert.ok(
      t.logs.every((line) => !line.includes(fileName) && !line.includes(document.sha256)),
      'no file name or digest in a log line',
    );
  });
}

function erasureAndKeysTests() {
  test('erasure removes the bytes, the file name and the digest; the content is then 410 / 4100', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const document = await uploaded(leadId, conditionIds[0]!, 'ine.png', Buffer.concat([png(), randomBytes(600_000)]));
    const chunks = async () =>
      Number(
        (
          await t.database.db.query<{ n: string }>('select count(*) as n from document_chunks where object_id = $1', [
            document.id,
          ])
        ).rows[0]!.n,
      );
    assert.equal(await chunks(), 3);
    const erased = await t.app.inject({
      method: 'DELETE',
      url: `/admin/leads/${leadId}/personal-data`,
      headers: t.admin,
    });
    assert.equal(erased.statusCode, 204, show(erased));
    assert.equal(await chunks(), 0, 'the bytes are gone');
    const read = await t.app.inject({
      method: 'GET',
      url: `${api}/leads/${leadId}/documents/${document.id}`,
      headers: t.partner.headers,
    });
    assert.equal(read.json().fileName, null);
    assert.equal(read.json().sha256, null);
    const res = await content(leadId, document.id);
    assert.equal(res.statusCode, 410);
    assert.deepEqual(
      { code: res.json().code, message: res.json().message },
      { code: 4100, message: 'Document erased' },
    );
    // The erasure stays final: a new document for the erased lead is refused, and nothing is kept of it.
    const again = await f.upload(leadId, conditionIds[1]!, { fileName: 'ine.png', data: png() });
    assert.equal(again.statusCode, 409, show(again));
    assert.deepEqual(
      { code: again.json().code, message: again.json().message },
      { code: 4097, message: 'Personal data erased' },
    );
    const listed = await t.app.inject({
      method: 'GET',
      url: `${api}/leads/${leadId}/documents`,
      headers: t.partner.headers,
    });
    assert.deepEqual(
      listed.json().items.map((d: { id: string }) => d.id),
      [document.id],
    );
  });

  test('the digest is sealed with the lead’s key; a plain one an earlier version wrote is sealed later', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const data = Buffer.concat([png(), randomBytes(1_000)]);
    const document = await uploaded(leadId, conditionIds[0]!, 'digest.png', data);
    const digest = createHash('sha256').update(data).digest('hex');
    assert.equal(document.sha256, digest);
    const stored = async () =>
      (
        await t.database.db.query<{ sha256: string | null; sha256_enc: string | null }>(
          'select sha256, sha256_enc from lead_documents where id = $1',
          [document.id],
        )
      ).rows[0]!;
    const sealed = await stored();
    assert.equal(sealed.sha256, null);
    assert.ok(sealed.sha256_enc?.startsWith('l1.') && !sealed.sha256_enc.includes(digest), sealed.sha256_enc ?? '');
    const partnerRead = () =>
      t.app.inject({
        method: 'GET',
        url: `${api}/leads/${leadId}/documents/${document.id}`,
        headers: t.partner.headers,
      });

    // As an earlier version wrote it: plain. It reads the same, and is sealed by the documents' job.
    await t.database.db.query('update lead_documents set sha256 = $1, sha256_enc = null where id = $2', [
      digest,
      document.id,
    ]);
    assert.equal((await partnerRead()).json().sha256, digest);
    assert.ok((await t.container.documents.sealPlainDigests()) >= 1);
    const resealed = await stored();
    assert.equal(resealed.sha256, null);
    assert.ok(resealed.sha256_enc?.startsWith('l1.'), resealed.sha256_enc ?? '');
    assert.equal((await partnerRead()).json().sha256, digest);
    assert.equal(await t.container.documents.sealPlainDigests(), 0, 'nothing left to seal');

    // Erased, no form of the digest is left in the row.
    const erased = await t.app.inject({
      method: 'DELETE',
      url: `/admin/leads/${leadId}/personal-data`,
      headers: t.admin,
    });
    assert.equal(erased.statusCode, 204, show(erased));
    assert.deepEqual(await stored(), { sha256: null, sha256_enc: null });
    assert.equal((await partnerRead()).json().sha256, null);
  });

  test('key rotation re-wraps the lead’s key only: the document’s key and name stay, its bytes read', async () => {
    const keyA = randomBytes(32).toString('hex');
    const keyB = randomBytes(32).toString('hex');
    const first = await buildTestApp({ database: t.database, env: { DATA_ENCRYPTION_KEY: keyA } });
    const g = await documentFixture(first);
    const { leadId, conditionIds } = await g.conditionedLead();
    const data = await plainPdf(400_000);
    const upload = await g.upload(leadId, conditionIds[0]!, { fileName: 'recibo.pdf', data });
    assert.equal(upload.statusCode, 201, show(upload));
    const keyIds = async () =>
      (
        await t.database.db.query<{ k: string }>(
          `select d.key_enc || ' ' || d.file_name_enc || ' ' || split_part(k.key_enc, '.', 2) as k
           from lead_documents d join lead_keys k on k.lead_id = d.lead_id where d.id = $1`,
          [upload.json().id],
        )
      ).rows[0]!.k;
    const before = await keyIds();
    const rotated = await buildTestApp({
      database: t.database,
      env: { DATA_ENCRYPTION_KEY: keyB, DATA_ENCRYPTION_PREVIOUS_KEYS: keyA },
    });
    try {
      const run = await rotated.app.inject({ method: 'POST', url: '/admin/keys/reencrypt', headers: rotated.admin });
      assert.equal(run.statusCode, 200, show(run));
      const after = await keyIds();
      const [key, name, wrappedBy] = after.split(' ');
      assert.deepEqual([key, name], before.split(' ').slice(0, 2), 'the document’s key and name are as they were');
      assert.ok(key!.startsWith('l1.'), 'sealed with the lead’s key');
      assert.notEqual(wrappedBy, before.split(' ')[2], 'the lead’s key is wrapped by the new data key');
      const res = await rotated.app.inject({
        method: 'GET',
        url: `/admin/leads/${leadId}/documents/${upload.json().id}/content`,
        headers: rotated.admin,
      });
      assert.equal(res.statusCode, 200, show(res));
      assert.ok(res.rawPayload.equals(data));
    } finally {
      await rotated.close();
      await first.close();
    }
  });
}

function sandboxTests() {
  test('the sandbox accepts aceptar-… and rejects rechazar-… (ILLEGIBLE) at once, with both events', async () => {
    const sandbox = await buildTestApp({ database: t.database, env: { AUTOFIN_ENV: 'sandbox' } });
    try {
      const g = await documentFixture(sandbox);
      const { leadId, conditionIds } = await g.conditionedLead();
      const accepted = await g.upload(leadId, conditionIds[0]!, { fileName: 'aceptar-recibo.png', data: png() });
      assert.equal(accepted.statusCode, 201, show(accepted));
      assert.equal(accepted.json().status, 'RECEIVED', 'the upload answers as any other');
      const rejected = await g.upload(leadId, conditionIds[1]!, { fileName: 'rechazar-ine.png', data: png() });
      const list = await sandbox.app.inject({
        method: 'GET',
        url: `${api}/leads/${leadId}/documents`,
        headers: sandbox.partner.headers,
      });
      assert.deepEqual(
        list.json().items.map((d: { status: string; rejectionReason: string | null }) => [d.status, d.rejectionReason]),
        [
          ['ACCEPTED', null],
          ['REJECTED', 'ILLEGIBLE'],
        ],
      );
      const { rows } = await t.database.db.query<{ type: string }>(
        `select type from webhook_events where lead_id = $1 and type like 'lead.document%'
           order by occurred_at, type`,
        [leadId],
      );
      assert.equal(rows.filter((r) => r.type === 'lead.document_reviewed').length, 2);
      assert.equal(rows.filter((r) => r.type === 'lead.document_received').length, 2);
      assert.ok(rejected.json().id);
    } finally {
      await sandbox.close();
    }
  });
}

describe('the lender’s review of documents', () => {
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    f = await documentFixture(t);
    receiver = await startReceiver();
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/webhooks`,
      headers: t.partner.headers,
      payload: { url: receiver.url, eventTypes: ['lead.document_received', 'lead.document_reviewed'] },
    });
    assert.equal(res.statusCode, 201, show(res));
    secret = res.json().secret;
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });
  readTests();
  reviewTests();
  eventTests();
  erasureAndKeysTests();
  sandboxTests();
});
