/**
 * The `autofin` command itself, as an operator runs it: bin/autofin.mjs in a process of its own, against
 * a listening service. The commands' behaviour is tested in process (src/cli/*.test.ts, test/cli-run.ts);
 * this checks the entry: the loader, the arguments, the exit status and the two streams.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { adminToken, buildTestApp, type TestApp } from '../helper.ts';

const bin = new URL('../../bin/autofin.mjs', import.meta.url).pathname;

describe('the autofin command as a process', () => {
  let t: TestApp;
  let url: string;
  before(async () => {
    t = await buildTestApp();
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  const autofin = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const childEnv = { ...process.env, ADMIN_TOKEN: adminToken, AUTOFIN_URL: url, ...env };
      execFile(process.execPath, [bin, ...args], { env: childEnv }, (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      });
    });

  test('a command prints its answer as JSON on stdout and exits 0', async () => {
    const run = await autofin(['companies', 'create', '--name', 'Autos del Proceso']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    const company = JSON.parse(run.stdout);
    assert.equal(company.name, 'Autos del Proceso');
    const listed = await t.app.inject({ method: 'GET', url: '/admin/companies', headers: t.admin });
    assert.ok(listed.json().items.some((c: { id: string }) => c.id === company.id));
  });

  test("a refusal prints the service's ErrorResponse on stderr and exits 1", async () => {
    const run = await autofin(['companies', 'list'], { ADMIN_TOKEN: 'not-the-admin-token-000' });
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.equal(JSON.parse(run.stderr).code, 4010);
  });

  test('wrong usage prints the help on stderr and exits 2; --help prints it on stdout', async () => {
    const wrong = await autofin(['companies', 'create']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /--name is required/);
    const help = await autofin(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage:/);
  });
});
