/**
 * Two service instances on one database, each with its own pool and its own delivery worker:
 * every event is delivered, none twice. On PGlite both share the one embedded connection.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createContainer, type Container } from '../composition.ts';
import { openPostgresDb } from '../db/postgres-db.ts';
import { systemClock } from '../shared/index.ts';
import type { Db } from '../db/index.ts';
import { testConfig } from '../../test/helper.ts';
import { ownTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.ts';

let database: TestDatabase;
let secondDb: Db;
let instances: Container[];
let receiver: Receiver;

describe('deliveries with two instances', () => {
  before(async () => {
    database = await ownTestDatabase();
    secondDb = database.schema
      ? await openPostgresDb(process.env.DATABASE_URL!, { schema: database.schema, max: 5 })
      : database.db;
    const encryptionKey = randomBytes(32);
    const config = testConfig();
    instances = await Promise.all(
      [database.db, secondDb].map((db) =>
        createContainer({
          config,
          db,
          clock: systemClock,
          signingKey: randomBytes(32),
          encryptionKey,
          warn: () => {},
        }),
      ),
    );
    receiver = await startReceiver();
  });

  after(async () => {
    for (const instance of instances) await instance.close();
    await receiver.close();
    if (secondDb !== database.db) await secondDb.close();
    await database.drop();
  });

  test('with a worker in each of two instances, every event is delivered exactly once', async () => {
    const [a, b] = instances;
    const company = await a.companies.createCompany('Autos Dos');
    await a.webhooks.service.create(company.id, { url: receiver.url });
    await a.webhooks.service.create(null, { url: `${receiver.url}/lender` });
    for (const instance of instances) instance.webhooks.worker.start();
    const actor = { companyId: company.id, consumerKey: 'ck_test' };
    const leads = 60;
    await Promise.all(Array.from({ length: leads }, (_, i) => (i % 2 ? a : b).leads.createLead(actor, {})));
    await receiver.waitFor(leads * 2, 90_000);
    // Give a duplicate the time to show up.
    await new Promise((resolve) => setTimeout(resolve, 700));
    assert.equal(receiver.received.length, leads * 2);
    for (const path of ['/hooks', '/hooks/lender']) {
      const ids = receiver.received.filter((r) => r.path === path).map((r) => r.headers['webhook-id']);
      assert.equal(ids.length, leads, path);
      assert.equal(new Set(ids).size, leads, `no event twice at ${path}`);
    }
    const { rows } = await database.db.query<{ status: string; attempts: number; n: string }>(
      `select status, jsonb_array_length(attempts) as attempts, count(*) as n from webhook_deliveries group by 1, 2`,
    );
    assert.deepEqual(
      rows.map((r) => ({ ...r, n: Number(r.n) })),
      [{ status: 'succeeded', attempts: 1, n: leads * 2 }],
    );
  });
});
