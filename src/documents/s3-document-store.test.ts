/**
 * The S3 document store (docs/operations.md, "Documents") against the fake S3 server of test/s3-server.ts,
 * which checks every request's signature: chunks go and come back byte for byte under opaque keys, deletes
 * are idempotent, and an unreachable or refusing bucket is `DocumentStoreUnavailable`, quickly.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { startS3Server, type S3Server } from '../../test/s3-server.ts';
import { DocumentStoreUnavailable, type DocumentStore } from './document-store.ts';
import { createS3DocumentStore } from './s3-document-store.ts';

const bucket = 'autofin-documents';
const credentials = { accessKeyId: 'AKIDTESTDOCUMENTS', secretAccessKey: 'test-secret-of-the-fake-bucket' };

/** Rejects with DocumentStoreUnavailable, and within `withinMs`. */
async function unavailableWithin(withinMs: number, call: () => Promise<unknown>) {
  const started = performance.now();
  await assert.rejects(call(), DocumentStoreUnavailable);
  const took = performance.now() - started;
  assert.ok(took < withinMs, `answered in ${Math.round(took)} ms`);
}

describe('S3 document store', () => {
  let server: S3Server;
  let store: DocumentStore & { close(): void };

  before(async () => {
    server = await startS3Server({ bucket, ...credentials });
    store = createS3DocumentStore({
      bucket,
      endpoint: server.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials,
    });
  });
  after(async () => {
    store?.close();
    await server?.close();
  });

  test('is the s3 kind and its ping resolves', async () => {
    assert.equal(store.kind, 's3');
    await store.ping();
    assert.deepEqual(server.requests.at(-1), { method: 'HEAD', key: '' });
  });

  test('chunks come back as they were put, stored as is under opaque keys', async () => {
    const objectId = randomUUID();
    const chunks = [randomBytes(64 * 1024), randomBytes(1), Buffer.alloc(0), randomBytes(300_000)];
    for (const [seq, chunk] of chunks.entries()) await store.putChunk(objectId, seq, chunk);

    for (const [seq, chunk] of chunks.entries()) {
      const read = await store.getChunk(objectId, seq);
      assert.ok(Buffer.isBuffer(read));
      assert.ok(read.equals(chunk), `chunk ${seq}`);
      assert.ok(server.objects.get(`documents/${objectId}/${seq}`)?.equals(chunk), `stored chunk ${seq}`);
    }
    const keys = [...server.objects.keys()].filter((key) => key.includes(objectId));
    assert.deepEqual(keys.sort(), [0, 1, 2, 3].map((seq) => `documents/${objectId}/${seq}`).sort());
    for (const key of server.objects.keys()) assert.match(key, /^documents\/[0-9a-f-]{36}\/\d+$/);
  });

  test('a chunk put again replaces the one before', async () => {
    const objectId = randomUUID();
    await store.putChunk(objectId, 0, Buffer.from('first'));
    await store.putChunk(objectId, 0, Buffer.from('second'));
    assert.equal((await store.getChunk(objectId, 0)).toString(), 'second');
  });

  test('deleteObject removes every chunk, and deleting again is no error', async () => {
    const objectId = randomUUID();
    for (let seq = 0; seq < 3; seq++) await store.putChunk(objectId, seq, randomBytes(16));
    const other = randomUUID();
    await store.putChunk(other, 0, randomBytes(16));

    await store.deleteObject(objectId, 3);
    assert.equal([...server.objects.keys()].filter((key) => key.includes(objectId)).length, 0);
    assert.ok(server.objects.has(`documents/${other}/0`), 'another object is kept');
    await store.deleteObject(objectId, 3);
    await assert.rejects(store.getChunk(objectId, 0), { message: 'document chunk not found' });
  });

  test('deleteObject of more than 1000 chunks goes in batches of 1000', async () => {
    const objectId = randomUUID();
    await store.putChunk(objectId, 0, randomBytes(8));
    await store.putChunk(objectId, 2400, randomBytes(8));
    const before = server.requests.length;
    await store.deleteObject(objectId, 2401);
    const posts = server.requests.slice(before).filter((request) => request.method === 'POST');
    assert.equal(posts.length, 3);
    assert.ok(!server.objects.has(`documents/${objectId}/0`) && !server.objects.has(`documents/${objectId}/2400`));
  });

  test('a missing chunk is not found, not an unavailable store', async () => {
    await assert.rejects(store.getChunk(randomUUID(), 0), (error: Error) => {
      assert.ok(!(error instanceof DocumentStoreUnavailable));
      assert.equal(error.message, 'document chunk not found');
      return true;
    });
  });

  test('with the bucket unreachable every call is DocumentStoreUnavailable, and works again after', async () => {
    const objectId = randomUUID();
    await store.putChunk(objectId, 0, Buffer.from('kept'));
    await server.stop();
    try {
      await unavailableWithin(5_000, () => store.ping());
      await unavailableWithin(5_000, () => store.putChunk(objectId, 1, Buffer.from('lost')));
      await unavailableWithin(5_000, () => store.getChunk(objectId, 0));
      await unavailableWithin(5_000, () => store.deleteObject(objectId, 1));
    } finally {
      await server.start();
    }
    await store.ping();
    await store.putChunk(objectId, 1, Buffer.from('written'));
    assert.equal((await store.getChunk(objectId, 0)).toString(), 'kept');
    assert.equal((await store.getChunk(objectId, 1)).toString(), 'written');
  });

  test('a wrong secret is refused (403) and is DocumentStoreUnavailable', async () => {
    const wrong = createS3DocumentStore({
      bucket,
      endpoint: server.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: 'not-the-secret' },
    });
    try {
      const objectId = randomUUID();
      await store.putChunk(objectId, 0, Buffer.from('sealed'));
      await unavailableWithin(5_000, () => wrong.ping());
      await unavailableWithin(5_000, () => wrong.putChunk(objectId, 1, Buffer.from('x')));
      await assert.rejects(wrong.getChunk(objectId, 0), (error: Error) => {
        assert.ok(error instanceof DocumentStoreUnavailable);
        assert.equal((error.cause as Error).name, 'SignatureDoesNotMatch');
        return true;
      });
      assert.ok(!server.objects.has(`documents/${objectId}/1`), 'nothing written');
    } finally {
      wrong.close();
    }
  });

  test('a missing bucket is DocumentStoreUnavailable, not a missing chunk', async () => {
    const elsewhere = createS3DocumentStore({
      bucket: 'no-such-bucket',
      endpoint: server.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials,
    });
    try {
      await assert.rejects(elsewhere.getChunk(randomUUID(), 0), DocumentStoreUnavailable);
      await assert.rejects(elsewhere.ping(), DocumentStoreUnavailable);
    } finally {
      elsewhere.close();
    }
  });
});
