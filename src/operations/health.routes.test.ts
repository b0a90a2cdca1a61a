import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';

describe('health probes', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ database: 'fresh' });
    // The test closes the database itself; the pg pool refuses a second `end()`, so the one in
    // `t.close()` must become a no-op.
    const db = t.database.db as { close: () => Promise<void> };
    const close = db.close.bind(db);
    let closing: Promise<void> | undefined;
    db.close = () => (closing ??= close());
  });
  after(() => t.close());

  test('/health/live answers 200 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health/live' });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  test('/health/ready answers 200 while the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(res.json(), { status: 'ready' });
  });

  test('/health/ready answers 503 / 5030 once the database is gone, while /health/live stays 200', async () => {
    await t.database.db.close();
    const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(res.statusCode, 503, show(res));
    const body = res.json();
    assert.equal(body.code, 5030, show(res));
    assert.equal(body.message, 'Service Unavailable', show(res));
    assert.equal(body.requestId, res.headers['x-request-id'], show(res));
    assert.equal(body.additionalData, null, show(res));
    assert.ok(!Number.isNaN(Date.parse(body.timestamp)), show(res));
    const live = await t.app.inject({ method: 'GET', url: '/health/live' });
    assert.equal(live.statusCode, 200, show(live));
  });
});
