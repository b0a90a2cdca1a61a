import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { operatorKey } from '../../test/lender-fixture.ts';
import { progressLine } from './backup-cli.ts';
import { runCli } from './run-cli.ts';

async function run(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, env, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('autofin backup and autofin restore', () => {
  let t: TestApp;
  let url: string;
  const folder = mkdtempSync(join(tmpdir(), 'autofin-backup-cli-'));
  before(async () => {
    t = await buildTestApp();
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('wrong usage exits 2 and says what is missing', async () => {
    const noOut = await run(['backup'], { ADMIN_TOKEN: 'x'.repeat(32) });
    assert.equal(noOut.code, 2);
    assert.match(noOut.stderr, /--out is required/);
    const noToken = await run(['backup', '--out', join(folder, 'b.tar.gz')]);
    assert.equal(noToken.code, 2);
    assert.match(noToken.stderr, /ADMIN_TOKEN is not set/);
    const noFile = await run(['restore']);
    assert.equal(noFile.code, 2);
    assert.match(noFile.stderr, /restore takes FILE/);
  });

  test('an analyst’s key is refused with the service’s 403 and no file is written', async () => {
    const analyst = await operatorKey(t, 'analyst');
    const out = join(folder, 'refused.tar.gz');
    const refused = await run(['backup', '--out', out, '--url', url], { AUTOFIN_OPERATOR_KEY: analyst.key });
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(refused.stdout, '');
    assert.equal(JSON.parse(refused.stderr).code, 4030);
    assert.equal(existsSync(out), false);
    assert.equal(existsSync(`${out}.partial`), false);
  });

  test('an existing file is never overwritten', async () => {
    const out = join(folder, 'existing.tar.gz');
    writeFileSync(out, 'kept');
    const run1 = await run(['backup', '--out', out, '--url', url], { ADMIN_TOKEN: t.config.adminToken! });
    assert.equal(run1.code, 1);
    assert.match(JSON.parse(run1.stderr).message, /exists: choose another file/);
  });

  test('a link left at the partial file’s name is never followed: refused, the linked file unchanged', async () => {
    const victim = join(folder, 'victim.txt');
    writeFileSync(victim, 'kept as it was', { mode: 0o644 });
    const out = join(folder, 'linked.tar.gz');
    symlinkSync(victim, `${out}.partial`);
    const linked = await run(['backup', '--out', out, '--url', url], { ADMIN_TOKEN: t.config.adminToken! });
    assert.equal(linked.code, 1, linked.stderr);
    assert.match(JSON.parse(linked.stderr).message, /linked\.tar\.gz\.partial exists/);
    assert.equal(readFileSync(victim, 'utf8'), 'kept as it was');
    assert.equal(statSync(victim).mode & 0o777, 0o644);
    assert.equal(existsSync(out), false);
  });

  test('restore into a path that is a file says so, with no stack trace', async () => {
    const file = join(folder, 'not-a-folder');
    writeFileSync(file, 'a file');
    const backupFile = join(folder, 'any.tar.gz');
    writeFileSync(backupFile, 'not read: the folder is refused first');
    const refused = await run(['restore', backupFile, '--data-dir', file]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.deepEqual(Object.keys(JSON.parse(refused.stderr)), ['message']);
    assert.match(JSON.parse(refused.stderr).message, /is a file, not a folder/);
  });

  test('restore refuses a folder that holds anything and a file it cannot read, changing nothing', async () => {
    const used = join(folder, 'used');
    mkdirSync(used);
    writeFileSync(join(used, 'notes.txt'), 'x');
    const refused = await run(['restore', join(folder, 'existing.tar.gz'), '--data-dir', used]);
    assert.equal(refused.code, 1);
    assert.match(JSON.parse(refused.stderr).message, /is not empty \(notes\.txt\)/);
    assert.deepEqual(readdirSync(used), ['notes.txt']);
    const missing = await run(['restore', join(folder, 'missing.tar.gz'), '--data-dir', join(folder, 'new')]);
    assert.equal(missing.code, 1);
    const expected = { message: `cannot read ${join(folder, 'missing.tar.gz')}`, reason: 'ENOENT' };
    assert.deepEqual(JSON.parse(missing.stderr), expected);
  });

  test('the progress line shows the share and the sizes', () => {
    assert.equal(progressLine(12_500_000, 25_000_000), `\r[${'#'.repeat(15)}${' '.repeat(15)}]  50%  12.5 of 25.0 MB`);
    assert.equal(progressLine(3_000_000, undefined), '\r3.0 MB');
  });
});
