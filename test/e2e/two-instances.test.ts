/**
 * Two service processes on one PostgreSQL database and one Redis (a redis-server of the test's own,
 * stopped and started again mid-run), as a lender runs them behind a load balancer. Needs
 * DATABASE_URL (the server on which a scratch database is made); skipped on the embedded engine.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { readMigrations } from '../../src/db/migrate.ts';
import {
  createScratchDatabase,
  newPartnerOn,
  startOwnRedis,
  startServiceProcess,
  type OwnRedis,
  type ServiceProcess,
} from '../processes/index.ts';

const serverUrl = process.env.DATABASE_URL;
const api = '/mx/b2b/autofin/api';
const adminToken = randomBytes(16).toString('hex');
const perMinute = 60;

describe('two instances on one PostgreSQL and one Redis', { skip: serverUrl ? false : 'needs DATABASE_URL' }, () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let redis: OwnRedis;
  let env: Record<string, string>;
  let a: ServiceProcess;
  let b: ServiceProcess;

  before(async () => {
    database = await createScratchDatabase(serverUrl!);
    redis = await startOwnRedis();
    env = {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      AUTOFIN_ENV: 'two-instances',
      ADMIN_TOKEN: adminToken,
      TOKEN_SIGNING_KEY: randomBytes(32).toString('hex'),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      RATE_LIMIT_PER_MINUTE: String(perMinute),
      LOG_LEVEL: 'info',
    };
    // Started together: both run the migrations on an empty database at the same moment.
    [a, b] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
    await database?.drop();
  });

  test('migrations raced by the two starts are applied once, and the catalogs imported once', async () => {
    // An instance listens before its catalogs are loaded; /health/ready answers once they are.
    for (const instance of [a, b]) assert.equal((await fetch(`${instance.base}/health/ready`)).status, 200);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const applied = await client.query<{ version: number }>('select version from schema_migrations order by version');
      assert.deepEqual(
        applied.rows.map((r) => r.version),
        (await readMigrations()).map((m) => m.version),
      );
      const meta = await client.query<{ n: string }>('select count(*) as n from catalog_meta');
      assert.equal(Number(meta.rows[0].n), 2);
    } finally {
      await client.end();
    }
  });

  test('a token issued by one instance is accepted by the other, and a revocation through one reaches the other', async () => {
    const partner = await newPartnerOn(a.base, adminToken);
    const onB = await fetch(`${b.base}${api}/catalogs/years`, { headers: partner.headers });
    assert.equal(onB.status, 200, await onB.text());
    const revoked = await fetch(`${b.base}/admin/credentials/${partner.consumerKey}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    assert.equal(revoked.status, 204);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const onA = await fetch(`${a.base}${api}/catalogs/years`, { headers: partner.headers });
    assert.equal(onA.status, 401, await onA.text());
  });

  test('the rate limit holds across both: a partner calling both in turn gets about the limit, never above the documented bound', async () => {
    // Counted in one minute's window: started early in a minute, and only the calls made before it ends.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 40_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    const partner = await newPartnerOn(a.base, adminToken);
    const windowEnd = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
    const statuses: number[] = [];
    while (statuses.length < perMinute * 2) {
      const res = await fetch(`${(statuses.length % 2 ? a : b).base}${api}/catalogs/years`, {
        headers: partner.headers,
      });
      await res.arrayBuffer();
      if (Date.now() >= windowEnd) break;
      statuses.push(res.status);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const admitted = statuses.filter((s) => s === 200).length;
    assert.ok(statuses.length > perMinute * 1.25 + 2, `enough calls within the minute (${statuses.length})`);
    assert.deepEqual([...new Set(statuses)].sort(), [200, 429]);
    assert.ok(admitted >= perMinute * 0.9, `admitted ${admitted}`);
    assert.ok(admitted <= perMinute * 1.25 + 2, `admitted ${admitted} of a limit of ${perMinute}`);
  });

  test('Redis stopped and started mid-run: no request fails, a third instance starts without it, both share limits again after', async () => {
    const partners = await Promise.all(Array.from({ length: 8 }, () => newPartnerOn(a.base, adminToken)));
    const failures: string[] = [];
    const latencies: number[] = [];
    let sent = 0;
    let stop = false;
    const load = (async () => {
      while (!stop) {
        const partner = partners[sent % partners.length];
        const instance = sent % 2 ? a : b;
        sent += 1;
        const started = performance.now();
        const res =
          sent % 3
            ? await fetch(`${instance.base}${api}/catalogs/zip-code/06700`, { headers: partner.headers })
            : await fetch(`${instance.base}${api}/leads`, {
                method: 'POST',
                headers: { ...partner.headers, 'content-type': 'application/json' },
                body: '{}',
              });
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        if (res.status >= 300) failures.push(`${res.status} ${res.url}`);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    })();
    const metric = async (instance: ServiceProcess) => {
      const text = await (
        await fetch(`${instance.base}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } })
      ).text();
      return /^autofin_rate_limits_shared (\d)/m.exec(text)?.[1];
    };
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      assert.deepEqual([await metric(a), await metric(b)], ['1', '1']);
      await redis.stop();
      const third = await startServiceProcess(env);
      try {
        const partner = await newPartnerOn(third.base, adminToken);
        const res = await fetch(`${third.base}${api}/catalogs/years`, { headers: partner.headers });
        assert.equal(res.status, 200, 'an instance starts and serves while Redis is down');
        assert.deepEqual([await metric(a), await metric(b), await metric(third)], ['0', '0', '0']);
      } finally {
        await third.stop();
      }
      await redis.start();
      const deadline = Date.now() + 8_000;
      while ((await metric(a)) !== '1' || (await metric(b)) !== '1') {
        assert.ok(Date.now() < deadline, 'both instances reconnect to Redis by themselves');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      stop = true;
      await load;
    }
    latencies.sort((x, y) => x - y);
    const p99 = latencies[Math.floor(latencies.length * 0.99)];
    console.log(
      `# ${sent} requests through the outage, p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
    assert.deepEqual(failures, []);
    assert.ok(sent > 50, `only ${sent} requests`);
    for (const instance of [a, b]) {
      const warnings = instance
        .output()
        .split('\n')
        .filter((l) => l.includes('"level":40') || l.includes('"level":"warn"'));
      assert.ok(warnings.length <= 6, `rate-limited warnings, got ${warnings.length}:\n${warnings.join('\n')}`);
    }
  });
});
