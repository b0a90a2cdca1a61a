/**
 * The encrypted columns of the whole service, seen together for key rotation: how many stored values
 * each key sealed, labelling values sealed before key ids were recorded, and re-sealing the values of
 * previous keys with the current one. Each owning module declares its columns (`sealedColumns` beside
 * its repository); the statements here are built only from those declarations, never from input.
 *
 * Re-sealing is safe beside traffic and on several instances at once: each batch is one short
 * transaction that locks the rows it takes (`for update skip locked`, so instances take different
 * rows and never wait on each other), and writes a value only if it is still the one it read.
 */
import type { Db } from './database.ts';
import type { FieldEncryption } from '../shared/index.ts';

export interface EncryptedColumn {
  table: string;
  /** The row's uuid key, from which the value's associated data is built. */
  id: string;
  column: string;
  context: (id: string) => string;
  /**
   * A column kept in step with the value (a keyed fingerprint of it), rewritten when it is re-sealed; for a
   * lead's value, `of` is given the lead's id (its key loaded).
   */
  follower?: { column: string; of: (value: unknown, leadId: string) => string };
  /**
   * A column of a lead's values, sealed with that lead's own key (`l1.` values, src/lead-keys), whose lead id
   * is in this column. Only its values sealed before lead keys count here; they move to their lead's key
   * (src/lead-keys) instead of being sealed again with the data key.
   */
  leadOf?: string;
}

/** Values per key id; `keyId` null: values sealed before key ids were recorded (by an older version). */
export interface KeyCount {
  keyId: string | null;
  values: number;
}

// Rows per re-sealing transaction: the decryption and encryption of this many values (a few
// milliseconds) is all that runs while their rows are locked.
const resealBatch = 100;
const labelBatch = 500;
const nilUuid = '00000000-0000-0000-0000-000000000000';

/** The key id of a column's value (`v2.<key id>.…`); null for values sealed before key ids. */
const keyOf = (c: EncryptedColumn) => `case when ${c.column} like 'v2.%' then split_part(${c.column}, '.', 2) end`;

/** Values of one column written under `v1` (no key id) from `after` on, labelled where a key opens them. */
async function labelPage(
  db: Db,
  encryption: FieldEncryption,
  c: EncryptedColumn,
  after: string,
): Promise<{ last?: string; unopenable: number }> {
  const { rows } = await db.query<{ id: string; v: string }>(
    `select ${c.id}::text as id, ${c.column} as v from ${c.table}
     where ${c.column} like 'v1.%' and ${c.id} > $1::uuid order by ${c.table}.${c.id} limit ${labelBatch}`,
    [after],
  );
  const ids: string[] = [];
  const values: string[] = [];
  const olds: string[] = [];
  let unopenable = 0;
  for (const row of rows) {
    const labelled = encryption.label(row.v, c.context(row.id));
    if (labelled === undefined) unopenable += 1;
    else {
      ids.push(row.id);
      values.push(labelled);
      olds.push(row.v);
    }
  }
  if (ids.length > 0) {
    // Only a value still as it was read is labelled: a write meanwhile stored a labelled one.
    await db.query(
      `update ${c.table} t set ${c.column} = u.v from unnest($1::uuid[], $2::text[], $3::text[]) as u(id, v, old)
       where t.${c.id} = u.id and t.${c.column} = u.old`,
      [ids, values, olds],
    );
  }
  return { last: rows.at(-1)?.id, unopenable };
}

export function createSealedValues(db: Db, columns: readonly EncryptedColumn[], encryption: FieldEncryption) {
  /**
   * One transaction: up to `limit` values of a previous key (or none) in `c` after the row `after`, in the
   * order of their ids (each batch reads on from the last, so a column is read once), sealed again.
   */
  async function resealBatchOf(
    c: EncryptedColumn,
    limit: number,
    after: string,
  ): Promise<{ taken: number; resealed: number; last?: string }> {
    return db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string; v: string }>(
        `select ${c.id}::text as id, ${c.column} as v from ${c.table}
         where ${c.id} > $2::uuid and ${c.column} is not null
           and (${c.column} like 'v1.%' or ${keyOf(c)} = any($1::text[]))
         order by ${c.table}.${c.id} limit ${limit} for update skip locked`,
        [encryption.previousKeyIds, after],
      );
      const last = rows.at(-1)?.id;
      const ids: string[] = [];
      const values: string[] = [];
      const olds: string[] = [];
      const followers: string[] = [];
      for (const row of rows) {
        const context = c.context(row.id);
        let value: unknown;
        try {
          value = encryption.decrypt(row.v, context);
        } catch {
          continue; // an unlabelled value no key opens: the start refuses those; left as it is
        }
        ids.push(row.id);
        values.push(encryption.encrypt(value, context));
        olds.push(row.v);
        if (c.follower) followers.push(c.follower.of(value, row.id));
      }
      if (ids.length === 0) return { taken: rows.length, resealed: 0, last };
      const follow = c.follower ? `, ${c.follower.column} = u.f` : '';
      const { rowCount } = await tx.query(
        `update ${c.table} t set ${c.column} = u.v${follow}
         from unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) as u(id, v, old, f)
         where t.${c.id} = u.id and t.${c.column} = u.old`,
        [ids, values, olds, c.follower ? followers : ids.map(() => null)],
      );
      return { taken: rows.length, resealed: rowCount, last };
    });
  }

  return {
    /** Stored values per key id, over every encrypted column. */
    async countByKey(): Promise<KeyCount[]> {
      const parts = columns.map(
        (c) =>
          `select ${keyOf(c)} as key_id, count(*) as n from ${c.table}
           where ${c.column} is not null and ${c.column} not like 'l1.%' group by 1`,
      );
      const { rows } = await db.query<{ key_id: string | null; n: string | number }>(
        `select key_id, sum(n) as n from (${parts.join(' union all ')}) s group by key_id order by key_id nulls first`,
      );
      return rows.map((r) => ({ keyId: r.key_id, values: Number(r.n) }));
    },

    /**
     * Writes the id of the key that opens it into every value sealed before key ids were recorded (the
     * ciphertext itself unchanged). Answers how many such values no configured key opens.
     */
    async labelUnlabelled(): Promise<number> {
      let unopenable = 0;
      for (const c of columns) {
        let after: string | undefined = nilUuid;
        while (after !== undefined) {
          const page = await labelPage(db, encryption, c, after);
          unopenable += page.unopenable;
          after = page.last;
        }
      }
      return unopenable;
    },

    /** Seals up to `limit` values of previous keys (or of no recorded key) with the current key. */
    async reseal(limit: number): Promise<number> {
      let resealed = 0;
      for (const c of columns.filter((column) => column.leadOf === undefined)) {
        let after = nilUuid;
        while (resealed < limit) {
          const batch = Math.min(resealBatch, limit - resealed);
          const done = await resealBatchOf(c, batch, after);
          resealed += done.resealed;
          // Fewer rows than asked: this column has no more free ones (others' are locked by another instance).
          if (done.taken < batch || done.last === undefined) break;
          after = done.last;
        }
      }
      return resealed;
    },
  };
}

export type SealedValues = ReturnType<typeof createSealedValues>;
