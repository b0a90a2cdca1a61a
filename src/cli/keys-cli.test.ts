import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { adminToken, buildTestApp, type TestApp } from '../../test/helper.ts';
import { runAutofin } from '../../test/cli-run.ts';
import { keyIdOf } from '../shared/index.ts';
import { createAdminClient } from './admin-client.ts';
import { parseCli } from './cli-args.ts';
import { reencryptAll } from './keys-reencrypt.ts';

const [keyA, keyB] = [randomBytes(32), randomBytes(32)];

describe('autofin keys status and autofin keys reencrypt', () => {
  let first: TestApp;
  let rotated: TestApp;
  let url: string;

  before(async () => {
    first = await buildTestApp({ database: 'own', env: { DATA_ENCRYPTION_KEY: keyA.toString('hex') } });
    // Ten leads' keys wrapped by key A (each lead's values are sealed with its own key).
    await first.leads.sealer.forWritingAll(Array.from({ length: 10 }, () => randomUUID()));
    rotated = await buildTestApp({
      database: first.database,
      env: { DATA_ENCRYPTION_KEY: keyB.toString('base64'), DATA_ENCRYPTION_PREVIOUS_KEYS: keyA.toString('hex') },
    });
    url = await rotated.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await rotated?.close();
    await first?.close();
  });

  const autofin = (args: string[]) => runAutofin(url, args);

  test('status prints the keys and the values stored under each', async () => {
    const run = await autofin(['keys', 'status']);
    assert.equal(run.code, 0, run.stderr);
    const status = JSON.parse(run.stdout);
    assert.deepEqual([status.current, status.previous], [keyIdOf(keyB), [keyIdOf(keyA)]]);
    assert.deepEqual(status.stored, [{ keyId: keyIdOf(keyA), values: 10 }]);
  });

  test(
    'reencrypt loops until nothing remains, one plain ' + 'progress line per call when stderr is no terminal',
    async () => {
      const run = await autofin(['keys', 'reencrypt', '--limit', '4']);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), { reencrypted: 10, remaining: 0 });
      assert.deepEqual(run.stderr.trim().split('\n'), [
        'reencrypted 4 values, 6 remaining',
        'reencrypted 8 values, 2 remaining',
        'reencrypted 10 values, 0 remaining',
      ]);
      assert.ok(!run.stderr.includes('\r'));
      const status = JSON.parse((await autofin(['keys', 'status'])).stdout);
      assert.deepEqual(status.stored, [{ keyId: keyIdOf(keyB), values: 10 }]);
    },
  );

  test('on a terminal the progress is a bar redrawn in place, ending at 100%', async () => {
    await first.leads.sealer.forWritingAll(Array.from({ length: 5 }, () => randomUUID())); // five more under key A
    const written: string[] = [];
    const client = createAdminClient({ baseUrl: url, token: adminToken });
    const result = await reencryptAll(client, 2, { interactive: true, write: (text) => written.push(text) });
    assert.deepEqual(result, { ok: true, body: { reencrypted: 5, remaining: 0 } });
    assert.equal(written.length, 3);
    assert.ok(
      written.every((w) => w.startsWith('\r[')),
      JSON.stringify(written),
    );
    assert.match(written[0]!, /\] 40% 2\/5 values$/);
    assert.match(written.at(-1)!, /\[#{30}\] 100% 5\/5 values\n$/);
  });

  test('a limit out of 1-10000 is a usage error before any call', () => {
    for (const limit of ['0', '10001', 'x', '2.5']) {
      const parsed = parseCli(['keys', 'reencrypt', '--limit', limit], { ADMIN_TOKEN: adminToken });
      assert.equal(parsed.kind, 'usage-error', limit);
    }
  });

  test('a refusal of the service ends the loop with its ErrorResponse and exit status 1', async () => {
    const run = await runAutofin(url, ['keys', 'reencrypt'], { ADMIN_TOKEN: 'not-the-admin-token-at-all' });
    assert.equal(run.code, 1);
    assert.equal(JSON.parse(run.stderr).code, 4010);
  });
});
