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
  /** The leads the retention policy is due to erase, and one lead's dates and hold (the leads module's reads). */
  queries: Pick<LenderLeadQueries, 'unchangedSince' | 'find'>;
  /** Each owner erases its own rows: the lead's sealed sections (with the history entry), its PIN, its report. */
  leads: Pick<LeadLifecycle, 'erasePersonalData'>;
  pins: { erasePin(leadId: string, tx: Queryable): Promise<void> };
  reports: Pick<Bureau, 'erase'>;
  /** The sandbox's copies of the PIN messages sent for the lead (sandbox environment only). */
  sandbox?: { eraseLead(leadId: string, tx: Queryable): Promise<void> };
  /** The internal notes of the lender's decisions on the lead (the decisions stay); the current decision. */
  outcomes: {
    eraseNotes(leadId: string, tx: Queryable): Promise<void>;
    partnerView(leadId: string): Promise<{ status: string; at: string } | null>;
  };
  /** The documents of the lead: their keys, names and digests go in the transaction; their bytes just after. */
  documents: {
    erase(leadId: string, tx: Queryable): Promise<number>;
    sweep(): Promise<number>;
  };
  /** The lead's own key: destroyed in the transaction, its partition shredded a second after (src/lead-keys). */
  leadKeys: { destroy(leadId: string, tx: Queryable): Promise<void>; shredSoon(): void };
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

export function createPersonalDataErasure(deps: Deps) {
  async function retentionOfRow(row: ErasableRow): Promise<Retention> {
    const outcome = await deps.outcomes.partnerView(row.id);
    return retentionOf(deps.retention, { updatedAt: row.updated_at, legalHold: row.legal_hold != null }, outcome);
  }

  async function erase(origin: AuditOrigin, leadId: string): Promise<boolean> {
    const now = deps.clock.now();
    let documents = 0;
    const done = await deps.db.transaction(async (tx) => {
      const erased = await deps.leads.erasePersonalData(leadId, now, origin.operatorId, tx);
      if (!erased) return false;
      await deps.pins.erasePin(erased.id, tx);
      await deps.reports.erase(erased.id, tx);
      await deps.sandbox?.eraseLead(erased.id, tx);
      await deps.outcomes.eraseNotes(erased.id, tx);
      documents = await deps.documents.erase(erased.id, tx);
      await deps.leadKeys.destroy(erased.id, tx);
      await deps.audit.record(origin, { action: 'lead.personal_data_erased', leadId: erased.id }, tx);
      return true;
    });
    // The bytes can no longer be opened (their keys are gone); they leave the store now, or at the next sweep.
    if (documents > 0) await deps.documents.sweep().catch(() => {});
    return done;
  }

  return {
    /** Erases on request: 404 for an unknown lead, 409 / 4097 for a credit in its retention or a held lead. */
    async eraseLead(origin: AuditOrigin, leadId: string): Promise<void> {
      const row = await deps.queries.find(leadId.toLowerCase());
      if (!row) throw errors.leadNotFound();
      const retention = await retentionOfRow(row);
      if (underRetention(retention, deps.clock.now())) {
        throw errors.legalRetention(retention.retainedUntil, retention.legalHold);
      }
      if (!(await erase(origin, row.id))) throw errors.leadNotFound();
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
      if (options.dryRun) {
        leadIds.push(...(await deps.queries.unchangedSince(cutoff, creditsFundedAfter, 10_000)));
      } else {
        for (;;) {
          const batch = await deps.queries.unchangedSince(cutoff, creditsFundedAfter, purgeBatch);
          for (const id of batch) if (await erase(options.origin ?? retentionOperator, id)) leadIds.push(id);
          // The keys' partitions are rewritten while the purge goes on, each once a second at most.
          if (batch.length > 0) deps.leadKeys.shredSoon();
          if (batch.length < purgeBatch) break;
        }
      }
      return {
        dryRun: options.dryRun,
        cutoff: cutoff.toISOString(),
        retentionDays: deps.retention.piiRetentionDays,
        count: leadIds.length,
        leadIds,
      };
    },
  };
}

export type PersonalDataErasure = ReturnType<typeof createPersonalDataErasure>;
