/**
 * SQL for webhook endpoints and deliveries. Events and their first deliveries are written in the
 * statement of the lead change itself, by the CTEs of outbox.ts that the leads and outcomes modules
 * are handed; this module reads them, tries them and records every attempt. `owner` is a company
 * id, or null for the lender's endpoints.
 */
import type { Db, Queryable } from '../db/index.ts';

export interface EndpointRow {
  id: string;
  company_id: string | null;
  url: string;
  event_types: string[] | null;
  description: string | null;
  enabled: boolean;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_until: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface Attempt {
  at: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Attempt[];
  next_attempt_at: Date | null;
  created_at: Date;
}

/** A claimed delivery with what it takes to send it. */
export interface DueDelivery {
  id: string;
  endpoint_id: string;
  attempts: Attempt[];
  event_id: string;
  type: string;
  occurred_at: Date;
  data: Record<string, unknown>;
  url: string;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_until: Date | null;
  /** A later delivery of the same lead to the same endpoint waits for this one. */
  has_next: boolean;
  /** The W3C traceparent of the request that wrote the event, when it was traced. */
  trace_parent: string | null;
}

export type EndpointChanges = Partial<Pick<EndpointRow, 'url' | 'event_types' | 'description' | 'enabled'>>;

const ownerIs = (n: number) => `company_id is not distinct from $${n}::uuid`;

/** The endpoints, each the partner's (or the lender's, owner null). */
function createEndpointStatements(db: Db) {
  return {
    async insertEndpoint(
      row: Omit<EndpointRow, 'previous_secret_enc' | 'previous_secret_until' | 'failing_since'>,
    ): Promise<void> {
      await db.query(
        `insert into webhook_endpoints (id, company_id, url, event_types,
          description, enabled, secret_enc, created_at, updated_at)
         values ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9)`,
        [
          row.id,
          row.company_id,
          row.url,
          row.event_types && JSON.stringify(row.event_types),
          row.description,
          row.enabled,
          row.secret_enc,
          row.created_at,
          row.updated_at,
        ],
      );
    },

    async listEndpoints(owner: string | null): Promise<EndpointRow[]> {
      const { rows } = await db.query<EndpointRow>(
        `select * from webhook_endpoints where ${ownerIs(1)} order by created_at, id`,
        [owner],
      );
      return rows;
    },

    async findEndpoint(id: string, owner: string | null): Promise<EndpointRow | undefined> {
      const { rows } = await db.query<EndpointRow>(`select * from webhook_endpoints where id = $1 and ${ownerIs(2)}`, [
        id,
        owner,
      ]);
      return rows[0];
    },

    async updateEndpoint(
      id: string,
      owner: string | null,
      changes: EndpointChanges,
      at: Date,
    ): Promise<EndpointRow | undefined> {
      const params: unknown[] = [id, owner, at];
      const sets = Object.entries(changes)
        .filter(([, value]) => value !== undefined)
        .map(([column, value]) => {
          params.push(column === 'event_types' ? value && JSON.stringify(value) : value);
          return `${column} = $${params.length}${column === 'event_types' ? '::jsonb' : ''}`;
        });
      // Enabling again starts a fresh count of failing days.
      if (changes.enabled) sets.push('failing_since = null');
      const { rows } = await db.query<EndpointRow>(
        `update webhook_endpoints set ${[...sets, 'updated_at = $3'].join(', ')}
          where id = $1 and ${ownerIs(2)} returning *`,
        params,
      );
      return rows[0];
    },

    async deleteEndpoint(id: string, owner: string | null): Promise<boolean> {
      const { rowCount } = await db.query(`delete from webhook_endpoints where id = $1 and ${ownerIs(2)}`, [id, owner]);
      return rowCount === 1;
    },

    /** The current secret becomes the previous one, still signing until `previousUntil`. */
    async rotateSecret(
      id: string,
      owner: string | null,
      secretEnc: string,
      at: Date,
      previousUntil: Date,
    ): Promise<boolean> {
      const { rowCount } = await db.query(
        `update webhook_endpoints set previous_secret_enc = secret_enc,
          previous_secret_until = $4, secret_enc = $3, updated_at = $5
         where id = $1 and ${ownerIs(2)}`,
        [id, owner, secretEnc, previousUntil, at],
      );
      return rowCount === 1;
    },
  };
}

/** The deliveries as their endpoint's owner sees them: a test delivery, the list, a manual retry. */
function createOwnerDeliveryStatements(db: Db) {
  return {
    /** A `webhook.test` event and its one delivery, to this endpoint only. */
    async insertTestDelivery(t: {
      eventId: string;
      deliveryId: string;
      endpointId: string;
      companyId: string | null;
      at: Date;
      data: object;
    }): Promise<void> {
      await db.query(
        `with event as (
           insert into webhook_events (id, type, company_id, lead_id,
             occurred_at, data) values ($1, 'webhook.test', $2, null, $3, $4::jsonb)
           returning id
         )
         insert into webhook_deliveries (id, endpoint_id, event_id,
           next_attempt_at, created_at) select $5, $6, id, $3, $3 from event`,
        [t.eventId, t.companyId, t.at, JSON.stringify(t.data), t.deliveryId, t.endpointId],
      );
    },

    /** Newest first; the cursor is the (created_at, id) of the last delivery of the previous page. */
    async listDeliveries(
      endpointId: string,
      limit: number,
      after?: { createdAt: Date; id: string },
    ): Promise<DeliveryRow[]> {
      const params: unknown[] = [endpointId, limit];
      let cursor = '';
      if (after) {
        params.push(after.createdAt, after.id);
        cursor = 'and (d.created_at, d.id) < ($3, $4::uuid)';
      }
      const { rows } = await db.query<DeliveryRow>(
        `select d.id, d.event_id, v.type as event_type, d.status, d.attempts, d.next_attempt_at, d.created_at
         from webhook_deliveries d join webhook_events v on v.id = d.event_id
         where d.endpoint_id = $1 ${cursor} order by d.created_at desc, d.id desc limit $2`,
        params,
      );
      return rows;
    },

    /** Pending again, due now (a manual retry); false when the delivery is not this endpoint's. */
    async retryDelivery(id: string, endpointId: string, at: Date): Promise<boolean> {
      const { rowCount } = await db.query(
        `update webhook_deliveries set status = 'pending', next_attempt_at = $3 where id = $1 and endpoint_id = $2`,
        [id, endpointId, at],
      );
      return rowCount === 1;
    },
  };
}

/**
 * The `seq` of the first pending delivery of `d`'s lead to `d`'s endpoint (after `after`), or null:
 * a scalar subquery ordered as webhook_deliveries_lead_order_idx, so PostgreSQL reads one entry of
 * that index whatever its statistics say. (Written as `not exists`, a plan made while the table was
 * new joined on the endpoint alone and read every pending delivery of it for each one claimed.)
 */
const firstPendingOfLead = (d: string, after = '') =>
  `select n.seq from webhook_deliveries n where n.endpoint_id = ${d}.endpoint_id and n.lead_id = ${d}.lead_id
     and n.status = 'pending' ${after} order by n.seq limit 1`;

/**
 * Leases the due deliveries and reads what it takes to send them, in one statement (one round trip,
 * no transaction around it): see `claimDue`, whose parameters it reads in order. The final select
 * reads the table as it was before the lease, which changes only `lease_until`.
 */
export const claimDueSql = `with busy as (
   select * from unnest($4::uuid[], $5::int[]) as b (endpoint_id, n)
 ), due as (
   select c.id, c.next_attempt_at, c.seq from webhook_endpoints e left join busy b on b.endpoint_id = e.id
   cross join lateral (
     select d.id, d.next_attempt_at, d.seq from webhook_deliveries d
     where d.endpoint_id = e.id and d.status = 'pending' and d.next_attempt_at <= $1
       and (d.lease_until is null or d.lease_until <= $1)
       and (d.lead_id is null or d.seq = (${firstPendingOfLead('d')}))
     order by d.next_attempt_at, d.seq limit greatest(0, $6 - coalesce(b.n, 0))
     for update skip locked
   ) c
   where e.enabled
   order by c.next_attempt_at, c.seq limit $3
 ), leased as (
   update webhook_deliveries d set lease_until = $2 from due where d.id = due.id
   returning d.id, d.endpoint_id, d.event_id, d.lead_id, d.seq, d.attempts, d.next_attempt_at
 )
 select d.id, d.endpoint_id, d.attempts,
   v.id as event_id, v.type, v.occurred_at, v.data, v.trace_parent,
   e.url, e.secret_enc, e.previous_secret_enc, e.previous_secret_until,
   (${firstPendingOfLead('d', 'and n.seq > d.seq')}) is not null as has_next
 from leased d join webhook_events v on v.id = d.event_id
   join webhook_endpoints e on e.id = d.endpoint_id
 order by d.next_attempt_at, d.seq`;

/**
 * An endpoint after an attempt ($3 its status, $5 its time, $6 a 410, $7 the time before which a
 * failing streak disables it). The row is written only when one of them changes: a success on a
 * healthy endpoint, the usual case, takes no lock on it.
 */
const failingSince = `case when $3 = 'succeeded' then null else coalesce(failing_since, $5) end`;
const stillEnabled = `(enabled and not $6 and not ($3 <> 'succeeded' and coalesce(failing_since, $5) <= $7))`;

/** What the delivery worker and its metrics do with deliveries: claim, record, give back, count. */
function createWorkerStatements(db: Db) {
  return {
    /**
     * Leases up to `limit` due deliveries of enabled endpoints until `leaseUntil`, at most `perEndpoint`
     * of an endpoint less those of it this instance has in flight (`busy`). A delivery waits while an
     * earlier one of the same lead to the same endpoint is pending (in flight, or due again later),
     * so a lead's events reach an endpoint in order. SKIP LOCKED lets several instances claim at once
     * without waiting for or taking each other's rows; a lease left by a crashed instance expires
     * and the delivery is claimed again.
     */
    async claimDue(
      now: Date,
      leaseUntil: Date,
      limit: number,
      options: { perEndpoint: number; busy?: ReadonlyMap<string, number> } = { perEndpoint: limit },
    ): Promise<DueDelivery[]> {
      const busy = options.busy ?? new Map<string, number>();
      const { rows } = await db.query<DueDelivery>(claimDueSql, [
        now,
        leaseUntil,
        limit,
        [...busy.keys()],
        [...busy.values()],
        options.perEndpoint,
      ]);
      return rows;
    },

    /**
     * Records an attempt and its outcome; `next` undefined for a final outcome. The endpoint's
     * failing streak ends on success; on failure it is disabled once failing since `disableBefore`.
     */
    async recordAttempt(
      r: {
        id: string;
        endpointId: string;
        attempt: Attempt;
        status: DeliveryRow['status'];
        next?: Date;
        at: Date;
        disable: boolean;
        disableBefore: Date;
      },
      tx: Queryable = db,
    ): Promise<void> {
      await tx.query(
        `with delivery as (
           update webhook_deliveries set attempts = attempts || $2::jsonb,
             status = $3, next_attempt_at = $4, lease_until = null where id = $1
         )
         update webhook_endpoints set failing_since = ${failingSince}, enabled = ${stillEnabled}
         where id = $8 and (failing_since is distinct from ${failingSince} or enabled <> ${stillEnabled})`,
        [r.id, JSON.stringify([r.attempt]), r.status, r.next ?? null, r.at, r.disable, r.disableBefore, r.endpointId],
      );
    },

    /** Gives a leased delivery back untried (a stop in the middle of an attempt). */
    async release(id: string): Promise<void> {
      await db.query('update webhook_deliveries set lease_until = null where id = $1', [id]);
    },

    /** Deliveries by status, and the age of the oldest pending one that is due. */
    async stats(now: Date): Promise<{ byStatus: Record<string, number>; oldestPendingSeconds: number }> {
      const counts = await db.query<{ status: string; n: string }>(
        'select status, count(*) as n from webhook_deliveries group by status',
      );
      const oldest = await db.query<{ at: Date | null }>(
        `select min(next_attempt_at) as at from webhook_deliveries where status = 'pending' and next_attempt_at <= $1`,
        [now],
      );
      const at = oldest.rows[0]?.at;
      return {
        byStatus: Object.fromEntries(counts.rows.map((r) => [r.status, Number(r.n)])),
        oldestPendingSeconds: at ? Math.max(0, (now.getTime() - new Date(at).getTime()) / 1000) : 0,
      };
    },
  };
}

/**
 * The pruning of what is done with (docs/operations.md, "Webhooks"), in batches: each statement deletes at
 * most `limit` rows, found by index (025_webhook_pruning_indexes.sql), and locks those rows alone.
 */
function createPruningStatements(db: Db) {
  return {
    /** Deliveries succeeded or given up, created before `cutoff`; how many went. Pending ones always stay. */
    async pruneFinishedDeliveries(cutoff: Date, limit: number): Promise<number> {
      const { rowCount } = await db.query(
        `delete from webhook_deliveries where id in (
           select id from webhook_deliveries where status <> 'pending' and created_at < $1
           order by created_at limit $2)`,
        [cutoff, limit],
      );
      return rowCount;
    },

    /** Events that occurred before `cutoff` and that no delivery refers to any more; how many went. */
    async pruneEvents(cutoff: Date, limit: number): Promise<number> {
      const { rowCount } = await db.query(
        `delete from webhook_events where id in (
           select v.id from webhook_events v
           where v.occurred_at < $1 and not exists (select 1 from webhook_deliveries d where d.event_id = v.id)
           order by v.occurred_at limit $2)`,
        [cutoff, limit],
      );
      return rowCount;
    },
  };
}

export function createWebhooksRepository(db: Db) {
  return {
    ...createEndpointStatements(db),
    ...createOwnerDeliveryStatements(db),
    ...createWorkerStatements(db),
    ...createPruningStatements(db),
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
