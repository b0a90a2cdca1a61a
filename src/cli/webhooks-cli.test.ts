import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { runAutofin } from '../../test/cli-run.ts';

let t: TestApp;
let url: string;

describe('the webhooks commands of the CLI', () => {
  before(async () => {
    t = await buildTestApp();
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  const autofin = (args: string[]) => runAutofin(url, args);
  const ok = async (args: string[]) => {
    const run = await autofin(args);
    assert.equal(run.code, 0, `autofin ${args.join(' ')}: ${run.stderr}`);
    return JSON.parse(run.stdout);
  };

  test(
    'the lender subscribes, tests, reads the log, rotates, ' + 'disables and deletes an endpoint from the command line',
    async () => {
      const created = await ok([
        'webhooks',
        'create',
        '--endpoint-url',
        'http://127.0.0.1:9/lender',
        '--event-types',
        'lead.created,lead.verified',
        '--description',
        'Riesgos',
      ]);
      assert.match(created.secret, /^whsec_/);
      assert.deepEqual(created.eventTypes, ['lead.created', 'lead.verified']);
      assert.deepEqual(
        (await ok(['webhooks', 'list'])).items.map((e: { id: string }) => e.id),
        [created.id],
      );
      const { deliveryId } = await ok(['webhooks', 'test', created.id]);
      const log = await ok(['webhooks', 'deliveries', created.id]);
      assert.equal(log.items[0].id, deliveryId);
      assert.equal((await ok(['webhooks', 'retry', created.id, deliveryId])).deliveryId, deliveryId);
      assert.match((await ok(['webhooks', 'rotate-secret', created.id])).secret, /^whsec_/);
      assert.equal((await ok(['webhooks', 'disable', created.id])).enabled, false);
      assert.deepEqual(await ok(['webhooks', 'delete', created.id]), { id: created.id, deleted: true });
      const gone = await autofin(['webhooks', 'deliveries', created.id]);
      assert.equal(gone.code, 1);
      assert.equal(JSON.parse(gone.stderr).code, 4047);
    },
  );
});
