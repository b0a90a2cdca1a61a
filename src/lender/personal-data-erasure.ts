/**
 * Erasure of a lead's personal data (docs/lender-api.md): on an operator's request, and by the
 * retention policy for leads unchanged for PII_RETENTION_DAYS. The sealed sections and the bureau
 * report go; the lead keeps its status, decision, reasons, loan info, vehicle and events. Each
 * erasure is audited and leaves an event on the lead, in the same transaction.
 */
import type { Db, Queryable } from '../db/index.ts';
import { errors } from '../http/index.ts';
import type { Clock } from '../shared/index.ts';
import type { ErasableRow, LeadLifecycle, LenderLeadQueries } from '../leads/index.ts';
import { addYears, retentionOf, underRetention, type Retention, type RetentionPolicy } from './retention.ts';
import type { AuditOrigin, AuditService } from '../audit/index.ts';
import type { Bureau } from '../bureau/index.ts';

interface Deps {
  db: Pick<Db, 'transaction'>;
  /** The leads the retention policy is due to erase (the leads module's read). */
  queries: Pick<LenderLeadQueries, 'unchangedSince' | 'countUnchangedSince'>;
  /**
   * Each owner erases its own rows: the lead's sealed sections (with the history entry), its PIN, its report.
   * The lead is locked first, its hold and dates read under the lock.
   */
  leads: Pick<LeadLifecycle, 'lockForErasure' | 'erasePersonalData'>;
  pins: { erasePin(leadId: string, tx: Queryable): Promise<void> };
  reports: Pick<Bureau, 'erase'>;
  /** The sandbox's copies of the PIN messages sent for the lead (sandbox environment only). */
  sandbox?: { eraseLead(leadId: string, tx: Queryable): Promise<void> };
  /** The internal notes of the lender's decisions on the lead (the decisions stay); the current decision. */
  outcomes: {
    eraseNotes(leadId: string, tx: Queryable): Promise<void>;
    partnerView(leadId: string, tx?: Queryable): Promise<{ status: string; at: string } | null>;
  };
  /** The documents of the lead: their keys, names and digests go in the transaction; their bytes just after. */
  documents: {
    erase(leadId: string, tx: Queryable): Promise<number>;
    sweep(): Promise<number>;
  };
  /** The lead's own key: destroyed in the transaction, its partition shredded a second after (src/lead-keys). */
  leadKeys: { destroy(leadId: string, tx: Queryable): Promise<void>; shredSoon(): void; holdShreds(): () => void };
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  retention: RetentionPolicy;
}

/** The operator id of erasures the retention policy makes. */
export const retentionOperator: AuditOrigin = Object.freeze({
  operatorId: 'retention',
  requestId: null,
  clientAddress: null,
});

const dayMs = 86_400_000;
const purgeBatch = 200;
/** A dry run lists at most this many leads, the oldest first (its count is of all of them). */
const dryRunListed = 10_000;

/** What an erasure did: erased, found no such lead, or kept it (read under the lead's lock). */
type Erasure = { kind: 'erased' } | { kind: 'unknown' } | { kind: 'kept'; retention: Retention };

/** Whether the lead must keep its data, judged on the locked row: a request's rule or the purge's. */
type Keeps = (row: LockedLead, retention: Retention, now: Date) => boolean;
type LockedLead = Pick<ErasableRow, 'id' | 'updated_at' | 'legal_hold'> & { erased_at?: Date | null };

const requestKeeps: Keeps = (_row, retention, now) => underRetention(retention, now);
/** The purge chose its leads before locking them: one held, funded, changed or erased since is skipped. */
const purgeKeeps =
  (cutoff: Date): Keeps =>
  (row, retention, now) =>
    row.erased_at != null || row.updated_at >= cutoff || underRetention(retention, now);

export function createPersonalDataErasure(deps: Deps) {
  async function retentionOfRow(
    row: Pick<ErasableRow, 'id' | 'updated_at' | 'legal_hold'>,
    tx?: Queryable,
  ): Promise<Retention> {
    const outcome = await deps.outcomes.partnerView(row.id, tx);
    return retentionOf(deps.retention, { updatedAt: row.updated_at, legalHold: row.legal_hold != null }, outcome);
  }

  /**
   * Erases unless `keeps` says no. The hold and the outcome are read with the lead's row locked, the lock a
   * hold's write and an outcome's write take too: whichever commits first, the other sees it.
   */
  async function erase(origin: AuditOrigin, leadId: string, keeps: Keeps): Promise<Erasure> {
    const now = deps.clock.now();
    let documents = 0;
    const done = await deps.db.transaction(async (tx): Promise<Erasure> => {
      const row = await deps.leads.lockForErasure(leadId, tx);
      if (!row) return { kind: 'unknown' };
      const retention = await retentionOfRow(row, tx);
      if (keeps(row, retention, now)) return { kind: 'kept', retention };
      const erased = await deps.leads.erasePersonalData(row.id, now, origin.operatorId, tx);
      if (!erased) return { kind: 'unknown' };
      await deps.pins.erasePin(erased.id, tx);
      await deps.reports.erase(erased.id, tx);
      await deps.sandbox?.eraseLead(erased.id, tx);
      await deps.outcomes.eraseNotes(erased.id, tx);
      documents = await deps.documents.erase(erased.id, tx);
      await deps.leadKeys.destroy(erased.id, tx);
      await deps.audit.record(origin, { action: 'lead.personal_data_erased', leadId: erased.id }, tx);
      return { kind: 'erased' };
    });
    // The bytes can no longer be opened (their keys are gone); they leave the store now, or at the next sweep.
    if (documents > 0) await deps.documents.sweep().catch(() => {});
    return done;
  }

  return {
    /** Erases on request: 404 for an unknown lead, 409 / 4097 for a credit in its retention or a held lead. */
    async eraseLead(origin: AuditOrigin, leadId: string): Promise<void> {
      const done = await erase(origin, leadId.toLowerCase(), requestKeeps);
      if (done.kind === 'unknown') throw errors.leadNotFound();
      if (done.kind === 'kept') throw errors.legalRetention(done.retention.retainedUntil, done.retention.legalHold);
      // The destroyed key leaves the database's files a second from now (with those of erasures meanwhile).
      deps.leadKeys.shredSoon();
    },

    /** The retention of a lead as the lender's view shows it. */
    retentionOf: retentionOfRow,

    /**
     * Erases (or, dry, only lists) the leads unchanged for the retention period, but never a credit inside
     * its retention nor a lead under legal hold.
     */
    async purge(options: { dryRun: boolean; origin?: AuditOrigin }) {
      const now = deps.clock.now();
      const cutoff = new Date(now.getTime() - deps.retention.piiRetentionDays * dayMs);
      const creditsFundedAfter = addYears(now, -deps.retention.creditRetentionYears);
      const leadIds: string[] = [];
      let count: number;
      if (options.dryRun) {
        // The oldest 10,000 are listed; all are counted.
        leadIds.push(...(await deps.queries.unchangedSince(cutoff, creditsFundedAfter, dryRunListed)));
        count = await deps.queries.countUnchangedSince(cutoff, creditsFundedAfter);
      } else {
        // The keys' partitions are rewritten once, when the purge ends (src/lead-keys).
        const release = deps.leadKeys.holdShreds();
        try {
          for (;;) {
            const batch = await deps.queries.unchangedSince(cutoff, creditsFundedAfter, purgeBatch);
            let erased = 0;
            for (const id of batch) {
              const done = await erase(options.origin ?? retentionOperator, id, purgeKeeps(cutoff));
              if (done.kind !== 'erased') continue;
              leadIds.push(id);
              erased++;
            }
            // A full batch with nothing erased ends the run rather than ask again; the next run takes the rest.
            if (batch.length < purgeBatch || erased === 0) break;
          }
        } finally {
          release();
        }
        count = leadIds.length;
      }
      return {
        dryRun: options.dryRun,
        cutoff: cutoff.toISOString(),
        retentionDays: deps.retention.piiRetentionDays,
        count,
        leadIds,
      };
    },
  };
}

export type PersonalDataErasure = ReturnType<typeof createPersonalDataErasure>;
