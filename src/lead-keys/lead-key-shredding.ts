/**
 * Erasure's end (docs/operations.md, "Erasure"): the lead's key is deleted in the erasure's
 * transaction, which records the partition that held it; `shred` rewrites each such partition
 * (`VACUUM FULL` of one of sixteen small tables, a lock of milliseconds on that table alone), so no dead
 * copy of the key is left in the table's files. It then switches to a new WAL segment and checkpoints, so
 * the segments that held the key are removed: always on the embedded engine; on PostgreSQL when the
 * service's role may (docs/operations.md, "Erasure"), the server's `wal_recycle` deciding whether they are
 * removed or kept for reuse.
 */
import type { Db, Queryable } from '../db/index.ts';

const partitionName = /^lead_keys_\d{2}$/;

export function createLeadKeyShredding(db: Db, now: () => Date) {
  return {
    /** Deletes the lead's key (inside the erasure's transaction) and records its partition for `shred`. */
    async destroy(leadId: string, tx: Queryable): Promise<boolean> {
      const { rows } = await tx.query<{ partition: string }>(
        `with gone as (delete from lead_keys where lead_id = $1 returning tableoid::regclass::text as partition)
         insert into lead_key_shreds (partition, since) select partition, $2 from gone
         on conflict (partition) do nothing
         returning partition`,
        [leadId, now()],
      );
      return rows.length > 0;
    },

    /** Rewrites every partition that held a destroyed key; on the embedded engine, retires the WAL that held it. */
    async shred(): Promise<number> {
      const { rows } = await db.query<{ partition: string; since: Date }>(
        'select partition, since from lead_key_shreds order by partition',
      );
      for (const row of rows) {
        if (!partitionName.test(row.partition)) continue; // only names this module made
        await db.query(`vacuum full ${row.partition}`);
        // A key destroyed while the rewrite ran leaves its partition recorded for the next run.
        await db.query('delete from lead_key_shreds where partition = $1 and since <= $2', [row.partition, row.since]);
      }
      if (rows.length === 0) return 0;
      if (db.engine === 'pglite') await retireWal(db);
      else await retireServerWal(db);
      return rows.length;
    },
  };
}

/**
 * A new WAL segment, then a checkpoint: the segments before it (which held the key) are removed, not kept
 * for reuse under a later name with their bytes intact (`wal_recycle` off, a setting of this session).
 */
async function retireWal(db: Queryable): Promise<void> {
  await db.query('set wal_recycle = off');
  await db.query('select pg_switch_wal()');
  await db.query('checkpoint');
}

export type LeadKeyShredding = ReturnType<typeof createLeadKeyShredding>;

/** On a PostgreSQL server, the same when the role may (superuser, or `pg_checkpoint` and `pg_switch_wal`). */
async function retireServerWal(db: Queryable): Promise<void> {
  try {
    await db.query('select pg_switch_wal()');
    await db.query('checkpoint');
  } catch {
    // Not allowed: the server retires its WAL at its own checkpoints (docs/operations.md, "Erasure").
  }
}
