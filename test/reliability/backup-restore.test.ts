/**
 * An online backup of the embedded database, whole processes: writers create leads and save their contact
 * while `autofin backup --out FILE` copies the live service; `autofin restore FILE` loads the copy into a new
 * DATA_DIR (and refuses a used one), a service started on it serves, and every write acknowledged before the
 * backup began reads back through the API. The keys are given in the environment, as docs/operations.md
 * tells an operator to keep them with the backups. Always the embedded engine (the processes get no
 * DATABASE_URL): on PostgreSQL backups are pg_dump's.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess, type ServiceProcess } from '../processes/index.ts';

const bin = new URL('../../bin/autofin.mjs', import.meta.url).pathname;
const api = '/mx/b2b/autofin/api';
const adminToken = 'backup-admin-token-0123456789abcdef';
const keys = {
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  TOKEN_SIGNING_KEY: randomBytes(32).toString('base64'),
};
const writers = 4;
/** Bounds the writes whatever the backup's speed. */
const maxLeads = 600;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const autofin = (args: string[], env: Record<string, string>): Promise<Run> =>
  new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });

async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

async function tokenFor(base: string, credential: { consumer_key: string; consumer_secret: string }) {
  const res = await call(base, 'POST', '/auth/token', {}, credential);
  assert.equal(res.status, 200, res.text);
  return { authorization: `Bearer ${res.json().access_token}` };
}

/** A lead id → the phone its contact was saved with, and when the service acknowledged it. */
interface Acknowledged {
  id: string;
  phone: string;
  at: number;
}

describe('an online backup of the embedded database while leads are written, restored into a new DATA_DIR', () => {
  const folders = mkdtempSync(join(tmpdir(), 'autofin-backup-e2e-'));
  const dataDir = join(folders, 'live');
  const restoredDir = join(folders, 'restored');
  const file = join(folders, 'backup.tar.gz');
  let live: ServiceProcess;
  let restored: ServiceProcess | undefined;
  let credential: { consumer_key: string; consumer_secret: string };

  before(async () => {
    live = await startServiceProcess({ DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, ...keys });
    const admin = { authorization: `Bearer ${adminToken}` };
    const company = await call(live.base, 'POST', '/admin/companies', admin, { name: 'Autos Respaldo' });
    assert.equal(company.status, 201, company.text);
    const created = await call(live.base, 'POST', `/admin/companies/${company.json().id}/credentials`, admin, {});
    assert.equal(created.status, 201, created.text);
    credential = created.json();
  });
  after(async () => {
    await live?.stop();
    await restored?.stop();
    rmSync(folders, { recursive: true, force: true });
  });

  const name = 'every write acknowledged before the backup began is served from the restored copy';
  test(name, { timeout: 600_000 }, async () => {
    const headers = await tokenFor(live.base, credential);
    const acknowledged: Acknowledged[] = [];
    let stopped = false;
    let counter = 0;
    const writer = async () => {
      while (!stopped && counter < maxLeads) {
        const n = ++counter;
        const lead = await call(live.base, 'POST', `${api}/leads`, headers, {});
        assert.equal(lead.status, 201, lead.text);
        const id = lead.json().id as string;
        const phone = `55${String(n).padStart(8, '0')}`;
        const body = { phone, email: `lead${n}@example.com` };
        const contact = await call(live.base, 'PUT', `${api}/leads/${id}/contact-info`, headers, body);
        assert.ok(contact.status < 300, contact.text);
        acknowledged.push({ id, phone, at: performance.now() });
      }
    };
    const running = Array.from({ length: writers }, writer);
    while (acknowledged.length < 20) await new Promise((resolve) => setTimeout(resolve, 20));

    const began = performance.now();
    const saved = await autofin(['backup', '--out', file], { ADMIN_TOKEN: adminToken, AUTOFIN_URL: live.base });
    const ended = performance.now();
    stopped = true;
    await Promise.all(running);
    assert.equal(saved.code, 0, saved.stderr);
    assert.deepEqual(JSON.parse(saved.stdout), { file, bytes: statSync(file).size });
    assert.equal(saved.stderr, '', 'no progress bar when stderr is not a terminal');

    const before = acknowledged.filter((write) => write.at < began);
    const during = acknowledged.filter((write) => write.at >= began && write.at <= ended);
    assert.ok(before.length >= 20, `${before.length} writes before the backup`);
    assert.ok(during.length > 0, 'writes were acknowledged while the backup was taken');

    const restore = await autofin(['restore', file, '--data-dir', restoredDir], {});
    assert.equal(restore.code, 0, restore.stderr);
    assert.equal(JSON.parse(restore.stdout).dataDir, restoredDir);

    restored = await startServiceProcess({ DATA_DIR: restoredDir, ADMIN_TOKEN: adminToken, ...keys });
    const readHeaders = await tokenFor(restored.base, credential);
    for (const write of before) {
      const lead = await call(restored.base, 'GET', `${api}/leads/${write.id}`, readHeaders);
      assert.equal(lead.status, 200, `lead ${write.id} was acknowledged before the backup: ${lead.text}`);
      assert.equal(lead.json().contact?.phone, write.phone, lead.text);
    }
    const took = Math.round(ended - began);
    const size = statSync(file).size;
    console.log(`backup: ${before.length} leads before, ${during.length} during ${took} ms, ${size} bytes`);
  });

  test('restore refuses a DATA_DIR that holds anything, and leaves it as it was', { timeout: 120_000 }, async () => {
    const used = readdirSync(restoredDir).sort();
    const run = await autofin(['restore', file, '--data-dir', restoredDir], {});
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(run.stdout, '');
    const refusal = /is not empty \(.*pgdata.*\): a backup is restored only into an empty or new folder/;
    assert.match(JSON.parse(run.stderr).message, refusal);
    assert.deepEqual(readdirSync(restoredDir).sort(), used);
    const health = await call(restored!.base, 'GET', '/health/ready', {});
    assert.equal(health.status, 200, health.text);
  });
});
