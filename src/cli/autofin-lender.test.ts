import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { runAutofin } from '../../test/cli-run.ts';
import { leadDefaults, readyLead } from '../../test/lead-fixture.ts';

describe('the autofin command line: operators, leads and audit', () => {
  let t: TestApp;
  let url: string;
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  const autofin = (args: string[], env: Record<string, string> = {}) => runAutofin(url, args, env);
  const ok = async (args: string[], env?: Record<string, string>) => {
    const run = await autofin(args, env);
    assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
    return run.stdout;
  };

  test(
    'operators create prints the key once; an analyst key ' + 'then lists, shows and exports leads; revoke ends it',
    async () => {
      const leadId = await readyLead(t);
      const created = JSON.parse(await ok(['operators', 'create', '--name', 'Ana', '--role', 'analyst', '--json']));
      assert.match(created.key, /^op_/);
      const listed = JSON.parse(await ok(['operators', 'list']));
      assert.ok(listed.items.some((o: { id: string; key?: string }) => o.id === created.id && o.key === undefined));

      const analyst = { AUTOFIN_OPERATOR_KEY: created.key };
      const leads = JSON.parse(await ok(['leads', 'list', '--company', t.partner.companyId, '--json'], analyst));
      assert.deepEqual(
        leads.items.map((l: { id: string }) => l.id),
        [leadId],
      );
      const shown = JSON.parse(await ok(['leads', 'show', leadId], analyst));
      assert.equal(shown.contact.phone, leadDefaults.phone);
      const csv = await ok(['leads', 'export', '--format', 'csv', '--company', t.partner.companyId], analyst);
      assert.equal(csv.trimEnd().split('\r\n').length, 2);
      const refused = await autofin(['leads', 'erase', leadId], analyst);
      assert.equal(refused.code, 1);
      assert.equal(JSON.parse(refused.stderr).code, 4030);

      const audit = JSON.parse(await ok(['audit', 'list']));
      assert.deepEqual(
        audit.items.slice(0, 2).map((r: { action: string; operatorId: string }) => [r.action, r.operatorId]),
        [
          ['leads.export', created.id],
          ['lead.read', created.id],
        ],
      );
      assert.deepEqual(JSON.parse(await ok(['operators', 'revoke', created.id])), { id: created.id, deleted: true });
      assert.equal((await autofin(['leads', 'list'], analyst)).code, 1);
    },
  );

  test('leads purge --dry-run and leads erase', async () => {
    const leadId = await readyLead(t);
    const dry = JSON.parse(await ok(['leads', 'purge', '--dry-run']));
    assert.deepEqual([dry.dryRun, dry.retentionDays, dry.count], [true, 180, 0]);
    assert.deepEqual(JSON.parse(await ok(['leads', 'erase', leadId])), { id: leadId, personalDataErased: true });
    const shown = JSON.parse(await ok(['leads', 'show', leadId]));
    assert.equal(shown.contact, null);
    assert.ok(shown.erasedAt);
  });
});
