/**
 * The service listens before its catalogs are loaded (docs/performance.md, "How starts are kept short"):
 * a catalog read sent the moment it listens, while the shipped catalogs are still being imported,
 * is answered with the catalog, never a 404. A service process on a scratch PostgreSQL database;
 * needs DATABASE_URL, skipped on the embedded engine.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createScratchDatabase, newPartnerOn, startServiceProcess } from '../processes/index.ts';

const serverUrl = process.env.DATABASE_URL;
const api = '/mx/b2b/autofin/api';
const adminToken = randomBytes(16).toString('hex');

describe('catalog reads while the catalogs load', { skip: serverUrl ? false : 'needs DATABASE_URL' }, () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let env: Record<string, string>;

  before(async () => {
    database = await createScratchDatabase(serverUrl!);
    env = {
      DATABASE_URL: database.url,
      AUTOFIN_ENV: 'catalogs-loading',
      ADMIN_TOKEN: adminToken,
      TOKEN_SIGNING_KEY: randomBytes(32).toString('hex'),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
    };
  });
  after(async () => {
    await database?.drop();
  });

  test('a read sent as the service starts listening waits for the import and answers the catalog, byte for byte', async () => {
    const first = await startServiceProcess(env);
    const { headers } = await newPartnerOn(first.base, adminToken);
    const paths = [`${api}/catalogs/years/2020/brands`, `${api}/catalogs/zip-code/06700`];
    const expected = await Promise.all(
      paths.map(async (p) => {
        const res = await fetch(`${first.base}${p}`, { headers });
        return { status: res.status, etag: res.headers.get('etag'), body: await res.text() };
      }),
    );
    assert.deepEqual(
      expected.map((e) => e.status),
      [200, 200],
    );
    await first.stop();

    // As on a first start: the catalogs are imported again by the next process.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('delete from catalog_meta; delete from catalog_vehicle; delete from catalog_zip_settlement');
    await client.end();

    const again = await startServiceProcess(env);
    try {
      const live = fetch(`${again.base}/health/live`);
      const answers = await Promise.all(
        paths.map(async (p) => {
          const res = await fetch(`${again.base}${p}`, { headers });
          return { status: res.status, etag: res.headers.get('etag'), body: await res.text() };
        }),
      );
      assert.deepEqual(answers, expected);
      // Log lines are written asynchronously: wait for the import's last one.
      for (let waited = 0; !again.output().includes('shipped catalogs ready') && waited < 10_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const out = again.output();
      const listening = out.indexOf('Server listening');
      const ready = out.indexOf('shipped catalogs ready');
      assert.ok(listening >= 0 && ready > listening, 'the import finished after the service listened');
      assert.equal((await live).status, 200);
    } finally {
      await again.stop();
    }
  });
});
