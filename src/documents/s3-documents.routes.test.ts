/**
 * Documents kept in an S3-compatible bucket (`DOCUMENT_STORE=s3`, docs/operations.md, "Documents"),
 * against a fake S3 server started here that checks each request's signature: the same upload, read and
 * erasure as with the database; the bucket holds only ciphertext under opaque keys; with the bucket out
 * of reach, readiness and uploads answer 503 and nothing is left half-written.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { documentFixture, type DocumentFixture } from '../../test/document-fixture.ts';
import { plainPdf } from '../../test/document-files.ts';
import { startS3Server, type S3Server } from '../../test/s3-server.ts';

const credentials = { accessKeyId: 'AKIATESTDOCUMENTS01', secretAccessKey: 'test-secret-of-the-fake-bucket-0123' };
let s3: S3Server;
let t: TestApp;
let f: DocumentFixture;
const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

const listed = async (leadId: string) =>
  (await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}/documents`, headers: t.partner.headers })).json()
    .items as { id: string }[];

describe('documents in an S3-compatible bucket', () => {
  before(async () => {
    s3 = await startS3Server({ bucket: 'autofin-docs', ...credentials });
    // The store takes its credentials from the AWS SDK's standard chain, as in production.
    process.env.AWS_ACCESS_KEY_ID = credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = credentials.secretAccessKey;
    t = await buildTestApp({
      env: { DOCUMENT_STORE: 's3', S3_BUCKET: 'autofin-docs', S3_ENDPOINT: s3.endpoint, S3_FORCE_PATH_STYLE: 'true' },
    });
    f = await documentFixture(t);
  });
  after(async () => {
    await t?.close();
    await s3?.close();
    for (const [name, value] of [
      ['AWS_ACCESS_KEY_ID', saved.id],
      ['AWS_SECRET_ACCESS_KEY', saved.secret],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  test('an upload is stored as ciphertext under opaque keys, read back whole, and erased from the bucket', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    const data = await plainPdf(700_000);
    const res = await f.upload(leadId, conditionIds[0]!, { fileName: 'recibos-de-nomina.pdf', data });
    assert.equal(res.statusCode, 201, show(res));
    const { id, sha256 } = res.json();
    const keys = [...s3.objects.keys()].filter((k) => k.includes(id));
    assert.deepEqual(keys.sort(), [0, 1, 2].map((n) => `documents/${id}/${n}`).sort(), 'three chunks, opaque keys');
    for (const key of keys) {
      const stored = s3.objects.get(key)!;
      assert.ok(!stored.includes(Buffer.from('%PDF')), 'no plaintext in the bucket');
      assert.ok(!stored.includes(data.subarray(1000, 1064)), 'no plaintext in the bucket');
      assert.ok(!key.includes('recibos') && !key.includes(sha256) && !key.includes('pdf'));
    }
    const content = await t.app.inject({
      method: 'GET',
      url: `/admin/leads/${leadId}/documents/${id}/content`,
      headers: t.admin,
    });
    assert.equal(content.statusCode, 200, show(content));
    assert.ok(content.rawPayload.equals(data));
    const erased = await t.app.inject({
      method: 'DELETE',
      url: `/admin/leads/${leadId}/personal-data`,
      headers: t.admin,
    });
    assert.equal(erased.statusCode, 204, show(erased));
    assert.deepEqual(
      [...s3.objects.keys()].filter((k) => k.includes(id)),
      [],
      'the objects are gone from the bucket',
    );
    const gone = await t.app.inject({
      method: 'GET',
      url: `/admin/leads/${leadId}/documents/${id}/content`,
      headers: t.admin,
    });
    assert.equal(gone.statusCode, 410);
  });

  test('bucket out of reach: readiness 503, uploads 503 / 5030, nothing listed; then all works again', async () => {
    const { leadId, conditionIds } = await f.conditionedLead();
    assert.equal((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode, 200);
    const before = s3.objects.size;
    await s3.stop();
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
      assert.equal(ready.statusCode, 503, show(ready));
      const res = await f.upload(leadId, conditionIds[0]!, { fileName: 'ine.pdf', data: await plainPdf(300_000) });
      assert.equal(res.statusCode, 503, show(res));
      assert.equal(res.json().code, 5030);
      assert.deepEqual(await listed(leadId), [], 'no document listed without its bytes');
    } finally {
      await s3.start();
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode, 200);
    assert.equal(s3.objects.size, before, 'no bytes without a document');
    const again = await f.upload(leadId, conditionIds[0]!, { fileName: 'ine.pdf', data: await plainPdf() });
    assert.equal(again.statusCode, 201, show(again));
    assert.equal((await listed(leadId)).length, 1);
  });
});
