/**
 * The lead keys module as the composition root uses it: each lead's own data key (lead-keys.ts), its
 * destruction by erasure and the shredding of its partition (lead-key-shredding.ts), the column key
 * rotation re-wraps, and the job that shreds soon after an erasure.
 */
import type { Db, EncryptedColumn, Queryable } from '../db/index.ts';
import { repeatingJob } from '../jobs/index.ts';
import type { Clock, FieldEncryption } from '../shared/index.ts';
import { createLeadKeyShredding } from './lead-key-shredding.ts';
import { createLeadKeys, leadKeyContext } from './lead-keys.ts';

/** The wrapped lead keys: rotating the data key re-wraps them, and leaves the values they seal as they are. */
const leadKeyColumns: EncryptedColumn[] = [
  { table: 'lead_keys', id: 'lead_id', column: 'key_enc', context: leadKeyContext },
];

export function createLeadKeysModule(deps: {
  db: Db;
  clock: Clock;
  encryption: FieldEncryption;
  warn: (message: string, error?: unknown) => void;
}) {
  const keys = createLeadKeys({ db: deps.db, encryption: deps.encryption, now: () => deps.clock.now().getTime() });
  const shredding = createLeadKeyShredding(deps.db, () => deps.clock.now());
  const shred = () => shredding.shred();
  // Partitions left to rewrite (an erasure whose shred failed, another instance's) are done every minute.
  const job = repeatingJob('lead key shredding', { firstMs: 10_000, everyMs: 60_000 }, () =>
    shred().catch((error: unknown) => deps.warn('erased leads’ keys could not be shredded yet', error)),
  );
  return {
    sealing: keys.sealing,
    /** Destroys the lead's key inside the erasure's transaction. */
    async destroy(leadId: string, tx: Queryable): Promise<void> {
      await shredding.destroy(leadId, tx);
      keys.forget(leadId);
    },
    /** Rewrites the partitions of destroyed keys (after the erasure commits, and by the job). */
    shred,
    encryptedColumns: leadKeyColumns,
    jobs: [job],
  };
}

export type LeadKeysModule = ReturnType<typeof createLeadKeysModule>;
