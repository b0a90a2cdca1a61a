import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from './open-database.ts';

const root = mkdtempSync(join(tmpdir(), 'autofin-open-'));
/** A prepared database, as src/embedded-template.ts leaves one: a table with one row. */
const template = join(root, 'template', 'pgdata');

describe('opening the embedded database', () => {
  before(async () => {
    const db = await openDatabase({ dataDir: join(root, 'template') });
    await db.query('create table shipped (name text primary key)');
    await db.query("insert into shipped values ('from the template')");
    await db.query('checkpoint');
    await db.close();
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const names = async (dataDir: string) => {
    const db = await openDatabase({ dataDir, template });
    try {
      return (await db.query<{ name: string }>('select name from shipped order by name')).rows.map((r) => r.name);
    } finally {
      await db.close();
    }
  };

  test('a new DATA_DIR starts as a copy of the template; the template is left as it was', async () => {
    const dataDir = join(root, 'new');
    const db = await openDatabase({ dataDir, template });
    try {
      assert.deepEqual((await db.query('select name from shipped')).rows, [{ name: 'from the template' }]);
      await db.query("insert into shipped values ('written here')");
    } finally {
      await db.close();
    }
    assert.deepEqual(await names(join(root, 'template')), ['from the template']);
  });

  test('a DATA_DIR that holds a database opens it, never the template', async () => {
    const dataDir = join(root, 'kept');
    const db = await openDatabase({ dataDir, template });
    await db.query("insert into shipped values ('written before the restart')");
    await db.close();
    assert.deepEqual(await names(dataDir), ['from the template', 'written before the restart']);
  });

  test('a copy a stopped start left halfway is thrown away and made again', async () => {
    const dataDir = join(root, 'interrupted');
    mkdirSync(join(dataDir, 'pgdata.partial'), { recursive: true });
    writeFileSync(join(dataDir, 'pgdata.partial', 'PG_VERSION'), 'half a copy');
    assert.deepEqual(await names(dataDir), ['from the template']);
    assert.equal(existsSync(join(dataDir, 'pgdata.partial')), false);
  });

  test('the embedded engine runs with 16 MB of shared buffers', async () => {
    const db = await openDatabase({ dataDir: join(root, 'settings'), template });
    try {
      assert.deepEqual((await db.query('show shared_buffers')).rows, [{ shared_buffers: '16MB' }]);
    } finally {
      await db.close();
    }
  });
});
