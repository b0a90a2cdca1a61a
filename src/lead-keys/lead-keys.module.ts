/**
 * The lead keys module as the composition root uses it: each lead's own data key (lead-keys.ts), its
 * destruction by erasure and the shredding of its partition (lead-key-shredding.ts), the column key
 * rotation re-wraps, and the shredding that follows erasures.
 *
 * An erasure asks for a shred (`shredSoon`); the shred runs a second later, so a burst of erasures (a
 * lender erasing many leads) rewrites each partition once, not once per lead. The retention purge holds
 * the shreds while it runs (`holdShreds`) and asks for one when it ends: a rewrite writes its partition
 * through the WAL, where the saves served beside it wait. Stopping the service and a backup run an
 * asked-for or held shred at once, before the database closes or is copied; a job also shreds every minute
 * what is left (a failed rewrite, another instance's erasure).
 */
import type { Db, EncryptedColumn, Queryable } from '../db/index.ts';
import { askedJob, repeatingJob } from '../jobs/index.ts';
import type { Clock, FieldEncryption } from '../shared/index.ts';
import { createLeadKeyShredding } from './lead-key-shredding.ts';
import { createLeadKeys, leadKeyContext } from './lead-keys.ts';

/** The wrapped lead keys: rotating the data key re-wraps them, and leaves the values they seal as they are. */
const leadKeyColumns: EncryptedColumn[] = [
  { table: 'lead_keys', id: 'lead_id', column: 'key_enc', context: leadKeyContext },
];

/** How long a shred waits after the first erasure that asked for it. */
const shredDelayMs = 1_000;

export function createLeadKeysModule(deps: {
  db: Db;
  clock: Clock;
  encryption: FieldEncryption;
  warn: (message: string, error?: unknown) => void;
}) {
  const keys = createLeadKeys({ db: deps.db, encryption: deps.encryption, now: () => deps.clock.now().getTime() });
  const shredding = createLeadKeyShredding(deps.db, () => deps.clock.now());
  const shred = () =>
    shredding.shred().catch((error: unknown) => deps.warn('erased leads’ keys could not be shredded yet', error));
  const soon = askedJob('lead key shredding after erasures', shredDelayMs, shred);
  // The minute's shred waits while a purge holds them, as the asked-for one does.
  const job = repeatingJob('lead key shredding', { firstMs: 10_000, everyMs: 60_000 }, async () =>
    soon.held ? undefined : shred(),
  );
  return {
    sealing: keys.sealing,
    /** Destroys the lead's key inside the erasure's transaction. */
    async destroy(leadId: string, tx: Queryable): Promise<void> {
      await shredding.destroy(leadId, tx);
      keys.forget(leadId);
    },
    /** Asks for the partitions of destroyed keys to be rewritten, a second from now (after the erasure commits). */
    shredSoon: () => soon.ask(),
    /** Holds the shreds until the function returned is called, which asks for one (the purge, while it runs). */
    holdShreds: () => soon.hold(),
    /** Runs an asked-for or held shred now, as a backup and a stop do, and waits for it. */
    shredAsked: () => soon.flush(),
    encryptedColumns: leadKeyColumns,
    jobs: [soon, job],
  };
}

export type LeadKeysModule = ReturnType<typeof createLeadKeysModule>;
