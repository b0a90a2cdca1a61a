/**
 * The claim's cost does not grow with the backlog: with hundreds of deliveries pending to one
 * endpoint, leasing a batch reads one entry of the lead-order index per delivery it looks at (is it
 * its lead's first?) and one per delivery it takes (has its lead a later one?), on a table that has
 * never been analysed and with the generic plan a long-lived connection ends up with. A claim that
 * read every pending delivery of the endpoint for each candidate fell behind under load and never
 * caught up. The batch it takes is the earliest due, one per lead.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ownTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { claimDueSql, createWebhooksRepository } from './webhooks.repository.ts';

const pending = 400;
const batch = 32;
const endpointId = randomUUID();
/** A lead with two deliveries pending: only its first may be claimed. */
const twiceLead = randomUUID();
let database: TestDatabase;

describe('claiming due deliveries', () => {
  before(async () => {
    database = await ownTestDatabase();
    const { db } = database;
    const at = new Date('2026-01-05T12:00:00Z');
    await createWebhooksRepository(db).insertEndpoint({
      id: endpointId,
      company_id: null,
      url: 'https://hooks.example.mx/autofin',
      event_types: null,
      description: null,
      enabled: true,
      secret_enc: 'not used here',
      created_at: at,
      updated_at: at,
    });
    // One event and one delivery per lead, due a millisecond apart; the first lead has a second one.
    await db.query(
      `with leads as (
         select k, case when k = $4 then $3::uuid else gen_random_uuid() end as lead_id
         from generate_series(1, $2::int) k
       ), events as (
         insert into webhook_events (id, type, company_id, lead_id, occurred_at, data)
         select gen_random_uuid(), 'lead.created', null, lead_id, $5::timestamptz + k * interval '1 ms', '{}'::jsonb
         from leads returning id, lead_id, occurred_at
       )
       insert into webhook_deliveries (id, endpoint_id, event_id, lead_id, next_attempt_at, created_at)
       select gen_random_uuid(), $1, id, lead_id, occurred_at, occurred_at from events order by occurred_at`,
      [endpointId, pending, twiceLead, pending, at],
    );
    // The first lead's first delivery is the earliest of all.
    await db.query(
      `update webhook_deliveries set lead_id = $2,
         next_attempt_at = next_attempt_at - interval '1 day', created_at = created_at - interval '1 day'
       where seq = (select min(seq) from webhook_deliveries) and endpoint_id = $1`,
      [endpointId, twiceLead],
    );
  });

  after(() => database.drop());

  interface PlanNode {
    'Index Name'?: string;
    'Actual Rows'?: number;
    'Actual Loops'?: number;
    Plans?: PlanNode[];
  }

  /** Index entries that matched in a scan of `index`, over the whole plan. */
  function rowsFrom(node: PlanNode, index: string): number {
    const own = node['Index Name'] === index ? (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) : 0;
    return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsFrom(child, index), 0);
  }

  test('a claim reads one entry of the lead order per delivery it looks at, whatever the backlog', async () => {
    const now = new Date('2026-01-06T00:00:00Z');
    const { plan, claimed } = await database.db.transaction(async (tx) => {
      await tx.query('set local plan_cache_mode = force_generic_plan');
      await tx.query(`prepare claim_due (timestamptz, timestamptz, int, uuid[], int[], int) as ${claimDueSql}`);
      const leaseUntil = new Date(now.getTime() + 60_000);
      const args = `'${now.toISOString()}', '${leaseUntil.toISOString()}', ${batch}, '{}', '{}', ${batch}`;
      const explained = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (analyze, format json) execute claim_due (${args})`,
      );
      const leased = await tx.query<{ id: string; lead_id: string; next_attempt_at: Date }>(
        `select id, lead_id, next_attempt_at from webhook_deliveries
         where lease_until is not null order by next_attempt_at`,
      );
      await tx.query('deallocate claim_due');
      return { plan: explained.rows[0]['QUERY PLAN'][0].Plan, claimed: leased.rows };
    });
    assert.equal(claimed.length, batch, 'a full batch is leased');
    const read = rowsFrom(plan, 'webhook_deliveries_lead_order_idx');
    // One per candidate looked at (a batch, plus the second delivery of the lead that has two) and
    // none more for "has a later one": a scan over the endpoint's backlog would read thousands.
    assert.ok(read <= 2 * batch + 2, `${read} entries of the lead order read for a batch of ${batch}`);

    // The earliest due, the lead with two deliveries once.
    const { rows: expected } = await database.db.query<{ id: string }>(
      `select id from webhook_deliveries d where d.endpoint_id = $1 and d.seq = (
         select min(seq) from webhook_deliveries n where n.lead_id = d.lead_id and n.endpoint_id = d.endpoint_id
       ) order by next_attempt_at, seq limit $2`,
      [endpointId, batch],
    );
    assert.deepEqual(
      claimed.map((d) => d.id),
      expected.map((d) => d.id),
    );
    assert.equal(
      claimed.filter((d) => d.lead_id === twiceLead).length,
      1,
      'a lead’s second delivery waits for its first',
    );
  });
});
