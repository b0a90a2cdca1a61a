/**
 * Deliveries go out as soon as they are written: the fallback poll is set to ten minutes here, so
 * only the wake (NOTIFY on PostgreSQL, the embedded engine's own notification in-process) explains
 * a delivery within seconds. Two instances: one writes, the other delivers. A lead's events reach
 * an endpoint in order, even when one of them has to be retried; other leads do not wait for it.
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

const fallbackPollMs = 600_000;
/** Far below the poll: a delivery this fast was woken. Generous for a busy shared machine. */
const wokenWithinMs = 5_000;

let database: TestDatabase;
let secondDb: Db;
let writer: Container;
let deliverer: Container;
let receiver: Receiver;
let actor: { companyId: string; consumerKey: string };

describe('deliveries woken as events are written', () => {
  before(async () => {
    database = await ownTestDatabase();
    secondDb = database.schema
      ? await openPostgresDb(process.env.DATABASE_URL!, { schema: database.schema, max: 5 })
      : database.db;
    const encryptionKey = randomBytes(32);
    const config = testConfig({ WEBHOOK_POLL_MS: String(fallbackPollMs) });
    [writer, deliverer] = await Promise.all(
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
    const company = await writer.companies.createCompany('Autos Despierto');
    await writer.webhooks.service.create(company.id, { url: receiver.url });
    actor = { companyId: company.id, consumerKey: 'ck_test' };
    // Only the second instance delivers; its first look (at start) finds nothing.
    deliverer.webhooks.worker.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
  });

  after(async () => {
    for (const instance of [writer, deliverer]) await instance.close();
    await receiver.close();
    if (secondDb !== database.db) await secondDb.close();
    await database.drop();
  });

  const bodies = (from = 0) =>
    receiver.received.slice(from).map((r) => ({
      id: String(r.headers['webhook-id']),
      status: r.status,
      ...(JSON.parse(r.body) as { type: string; data: { leadId: string } }),
    }));

  async function within(ms: number, count: number): Promise<number> {
    const started = performance.now();
    await receiver.waitFor(count, ms);
    return performance.now() - started;
  }

  test(
    'an event written by one instance reaches the receiver ' + 'through the other at once, not at its next poll',
    async () => {
      const start = receiver.received.length;
      const { id } = await writer.leads.createLead(actor, {});
      const took = await within(wokenWithinMs, start + 1);
      assert.ok(took < wokenWithinMs, `delivered after ${Math.round(took)} ms`);
      assert.deepEqual(
        bodies(start).map((b) => [b.type, b.data.leadId]),
        [['lead.created', id]],
      );
    },
  );

  test("a lead's events arrive in the order written, and none twice", async () => {
    const start = receiver.received.length;
    const leads = await Promise.all(Array.from({ length: 6 }, () => writer.leads.createLead(actor, {})));
    // Three more events per lead, written while the first ones are being delivered.
    await Promise.all(
      leads.map(async ({ id }) => {
        for (const downPayment of [110_000, 120_000, 130_000]) {
          await writer.leads.saveLoanInfo(actor, id, { downPayment } as Parameters<
            Container['leads']['saveLoanInfo']
          >[2]);
        }
      }),
    );
    await within(30_000, start + leads.length * 4);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const got = bodies(start);
    assert.equal(got.length, leads.length * 4, 'nothing twice');
    assert.equal(new Set(got.map((b) => b.id)).size, got.length);
    for (const { id } of leads) {
      assert.deepEqual(
        got.filter((b) => b.data.leadId === id).map((b) => b.type),
        ['lead.created', 'lead.updated', 'lead.updated', 'lead.updated'],
        `lead ${id}`,
      );
    }
    const { rows } = await database.db.query<{ written: string }>(
      `select string_agg(v.type, ',' order by d.seq) as written from
        webhook_deliveries d join webhook_events v on v.id = d.event_id
       where v.lead_id = any($1::uuid[]) group by v.lead_id`,
      [leads.map((l) => l.id)],
    );
    assert.deepEqual(
      new Set(rows.map((r) => r.written)),
      new Set(['lead.created,lead.updated,lead.updated,lead.updated']),
    );
  });

  test("a lead's next event waits for the retry of a failed one, while other leads go on", async () => {
    const start = receiver.received.length;
    receiver.answer(500);
    const stuck = await writer.leads.createLead(actor, {});
    await receiver.waitFor(start + 1, wokenWithinMs);
    await writer.leads.saveLoanInfo(actor, stuck.id, { downPayment: 140_000 } as Parameters<
      Container['leads']['saveLoanInfo']
    >[2]);
    await writer.leads.createLead(actor, {});
    await receiver.waitFor(start + 2, wokenWithinMs);
    // The retry comes 5 s after the failure; the stuck lead's update only after it.
    await receiver.waitFor(start + 4, 20_000);
    assert.deepEqual(
      bodies(start).map((b) => [b.type, b.data.leadId === stuck.id ? 'stuck' : 'other', b.status]),
      [
        ['lead.created', 'stuck', 500],
        ['lead.created', 'other', 200],
        ['lead.created', 'stuck', 200],
        ['lead.updated', 'stuck', 200],
      ],
    );
  });

  test('on PostgreSQL the listener reconnects once its connection drops, and wakes the worker again', async (t) => {
    if (!database.schema) return t.skip('PostgreSQL only');
    const admin = await openPostgresDb(process.env.DATABASE_URL!, { max: 1 });
    try {
      const listeners = `select pid from pg_stat_activity where application_name = 'autofin-listen-autofin_webhooks'`;
      const before = (await admin.query<{ pid: number }>(listeners)).rows.map((r) => r.pid);
      assert.ok(before.length > 0, 'a listening connection');
      await admin.query(`select pg_terminate_backend(pid) from (${listeners}) l`);
      const deadline = Date.now() + 10_000;
      // A new listening connection (other test files' listeners may show up too: any new pid will do).
      while (!(await admin.query<{ pid: number }>(listeners)).rows.some((r) => !before.includes(r.pid))) {
        if (Date.now() > deadline) assert.fail('no new listening connection');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const start = receiver.received.length;
      await writer.leads.createLead(actor, {});
      const took = await within(wokenWithinMs, start + 1);
      assert.ok(took < wokenWithinMs, `delivered after ${Math.round(took)} ms`);
    } finally {
      await admin.close();
    }
  });
});
