import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { bearer, operatorKey } from '../../test/lender-fixture.ts';
import { readMigrations } from '../db/migrate.ts';
import { restoreDataDir } from '../db/index.ts';

describe('GET /admin/backup', () => {
  let t: TestApp;
  let analyst: { key: string };
  let admin: { id: string; key: string };
  const folders = mkdtempSync(join(tmpdir(), 'autofin-backup-route-'));
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    analyst = await operatorKey(t, 'analyst');
    admin = await operatorKey(t, 'admin');
  });
  after(async () => {
    await t.close();
    rmSync(folders, { recursive: true, force: true });
  });

  const backup = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/admin/backup', headers });

  test('answers 401 without a token or with a wrong one, and 403 to an analyst', async () => {
    const none = await backup({});
    assert.equal(none.statusCode, 401, show(none));
    assert.equal(none.json().code, 4010);
    const wrong = await backup(bearer('not-the-admin-token-0123456789'));
    assert.equal(wrong.statusCode, 401, show(wrong));
    assert.equal(wrong.json().code, 4010);
    const refused = await backup(bearer(analyst.key));
    assert.equal(refused.statusCode, 403, show(refused));
    assert.equal(refused.json().code, 4030);
    assert.equal(refused.headers['content-disposition'], undefined);
  });

  if (process.env.DATABASE_URL) {
    test('on PostgreSQL answers 409 / 4095 pointing to pg_dump', async () => {
      const res = await backup(t.admin);
      assert.equal(res.statusCode, 409, show(res));
      const body = res.json();
      assert.equal(body.code, 4095);
      assert.match(body.message, /pg_dump/);
      assert.deepEqual(body.additionalData, { engine: 'postgres', use: 'pg_dump' });
    });
    return;
  }

  test('streams a gzip’d copy an admin can restore into an empty folder, and never over a used one', async () => {
    const res = await backup(bearer(admin.key));
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['content-type'], 'application/gzip');
    assert.equal(res.headers['cache-control'], 'no-store');
    const disposition = String(res.headers['content-disposition']);
    assert.match(disposition, /^attachment; filename="autofin-backup-[0-9TZ-]+\.tar\.gz"$/);
    assert.equal(Number(res.headers['content-length']), res.rawPayload.length);
    assert.deepEqual([...res.rawPayload.subarray(0, 2)], [0x1f, 0x8b]);
    // Who took a copy of every lead's (sealed) data is recorded, with its size.
    const audit = await t.app.inject({ method: 'GET', url: '/admin/audit', headers: t.admin });
    const taken = audit.json().items.find((r: { action: string }) => r.action === 'backup');
    assert.deepEqual([taken?.operatorId, taken?.rows], [admin.id, res.rawPayload.length], show(audit));
    const logged = t.logs.map((line) => JSON.parse(line) as { level: number; msg: string });
    assert.deepEqual(
      logged.filter((line) => line.msg === 'backup taken').map((line) => line.level),
      [30],
      'logged once, at info',
    );

    const target = join(folders, 'restored');
    const restored = await restoreDataDir(target, new Blob([new Uint8Array(res.rawPayload)]));
    const migrations = await readMigrations();
    assert.equal(restored.schemaVersion, migrations[migrations.length - 1].version);
    const entries = readdirSync(target).sort();
    assert.deepEqual(entries, ['pgdata']);

    await assert.rejects(restoreDataDir(target, new Blob([new Uint8Array(res.rawPayload)])), /is not empty \(pgdata\)/);
    assert.deepEqual(readdirSync(target), entries);
  });

  test('a file that is not a backup is refused and leaves the folder empty', async () => {
    const target = join(folders, 'garbage');
    const garbage = new Blob(['not a backup']);
    await assert.rejects(restoreDataDir(target, garbage), /not a backup of an autofin embedded database/);
    assert.deepEqual(readdirSync(target), []);
  });
});
