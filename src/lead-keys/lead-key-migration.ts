/**
 * Values of leads sealed with the service's data key before leads had keys of their own (`v1.`, `v2.`)
 * are moved to their lead's key, a page of leads at a time: at start, by a job, until none is left, and
 * by `POST /admin/keys/reencrypt` (docs/operations.md, "Rotating keys"). Each page is one short
 * transaction that writes a value only if it is still the one it read, so it runs beside traffic.
 */
import type { Db, EncryptedColumn } from '../db/index.ts';
import type { FieldEncryption } from '../shared/index.ts';
import type { LeadSealing } from './lead-keys.ts';

/** A column of lead values: `leadOf` names the column that holds the row's lead id. */
export type LeadColumn = EncryptedColumn & { leadOf: string };

const leadsPerPage = 200;
const nilUuid = '00000000-0000-0000-0000-000000000000';
const legacy = (column: string) => `(${column} like 'v1.%' or ${column} like 'v2.%')`;

export function createLeadKeyMigration(
  db: Db,
  columns: readonly LeadColumn[],
  encryption: FieldEncryption,
  sealing: LeadSealing,
) {
  /** One page of leads of column `c` after `after`: their legacy values sealed again with their keys. */
  async function page(c: LeadColumn, after: string): Promise<{ last?: string; moved: number }> {
    return db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string; lead: string; v: string }>(
        `select ${c.id}::text as id, ${c.leadOf}::text as lead, ${c.column} as v from ${c.table}
         where ${c.leadOf} in (
           select distinct ${c.leadOf} from ${c.table} where ${c.leadOf} > $1::uuid and ${legacy(c.column)}
           order by 1 limit ${leadsPerPage}
         ) and ${legacy(c.column)}
         order by 2 for update skip locked`,
        [after],
      );
      let moved = 0;
      for (const row of rows) {
        let value: unknown;
        try {
          value = encryption.decrypt(row.v, c.context(row.id));
        } catch {
          continue; // a value no configured key opens: the start refuses those; left as it is
        }
        await sealing.forWriting(row.lead, tx);
        // A fingerprint kept beside the value (the phone's) is taken again with the lead's key.
        const follow = c.follower ? `, ${c.follower.column} = $4` : '';
        const { rowCount } = await tx.query(
          `update ${c.table} set ${c.column} = $1${follow} where ${c.id} = $2 and ${c.column} = $3`,
          [
            sealing.seal(row.lead, value, c.context(row.id)),
            row.id,
            row.v,
            ...(c.follower ? [c.follower.of(value, row.lead)] : []),
          ],
        );
        moved += rowCount ?? 0;
      }
      return { last: rows.at(-1)?.lead, moved };
    });
  }

  return {
    /** Moves up to about `limit` legacy values to their leads' keys; how many it moved. */
    async migrate(limit: number): Promise<number> {
      let moved = 0;
      for (const c of columns) {
        let after: string | undefined = nilUuid;
        while (after !== undefined && moved < limit) {
          const done = await page(c, after);
          moved += done.moved;
          after = done.last;
        }
      }
      return moved;
    },
  };
}
