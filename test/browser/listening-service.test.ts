import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adminToken } from '../helper.ts';
import { startListeningService } from './listening-service.ts';

test('the listening service answers over HTTP on 127.0.0.1 as a sandbox with an admin token, until closed', async () => {
  const service = await startListeningService();
  let closed = false;
  try {
    assert.match(service.base, /^http:\/\/127\.0\.0\.1:\d+$/);
    const operators = await fetch(`${service.base}/admin/operators`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    assert.equal(operators.status, 200);
    assert.deepEqual(await operators.json(), { items: [] });
    const guide = await fetch(`${service.base}/docs/sandbox.md`);
    assert.equal(guide.status, 200, 'the sandbox guide is served only in the sandbox environment');
    assert.equal(service.testApp.config.environment, 'sandbox');
    await service.close();
    closed = true;
    await assert.rejects(fetch(`${service.base}/docs/sandbox.md`));
  } finally {
    if (!closed) await service.close();
  }
});
