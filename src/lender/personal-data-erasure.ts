/**
 * Erasure of a lead's personal data (docs/lender-api.md): on an operator's request, and by the
 * retention policy for leads unchanged for PII_RETENTION_DAYS. The sealed sections and the bureau
 * report go; the lead keeps its status, decision, reasons, loan info, vehicle and events. Each
 * erasure is audited and leaves an event on the lead, in the same transaction.
 */
import type { Db, Queryable } from '../db/index.ts';
import { errors } from '../http/index.ts';
import type { Clock } from '../shared/index.ts';
import type { LeadLifecycle, LenderLeadQueries } from '../leads/index.ts';
import type { AuditOrigin, AuditService } from '../audit/index.ts';
import type { Bureau } from '../bureau/index.ts';

interface Deps {
  db: Pick<Db, 'transaction'>;
  /** The leads the retention policy is due to erase (the leads module's read). */
  queries: Pick<LenderLeadQueries, 'unchangedSince'>;
  /** Each owner erases its own rows: the lead's sealed sections (with the history entry), its PIN, its report. */
  leads: Pick<LeadLifecycle, 'erasePersonalData'>;
  pins: { erasePin(leadId: string, tx: Queryable): Promise<void> };
  reports: Pick<Bureau, 'erase'>;
  /** The sandbox's copies of the PIN messages sent for the lead (sandbox environment only). */
  sandbox?: { eraseLead(leadId: string, tx: Queryable): Promise<void> };
  /** The internal notes of the lender's decisions on the lead (the decisions stay). */
  outcomes: { eraseNotes(leadId: string, tx: Queryable): Promise<void> };
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  retentionDays: number;
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
  async function erase(origin: AuditOrigin, leadId: string): Promise<boolean> {
    const now = deps.clock.now();
    return deps.db.transaction(async (tx) => {
      const erased = await deps.leads.erasePersonalData(leadId, now, origin.operatorId, tx);
      if (!erased) return false;
      await deps.pins.erasePin(erased.id, tx);
      await deps.reports.erase(erased.id, tx);
      await deps.sandbox?.eraseLead(erased.id, tx);
      await deps.outcomes.eraseNotes(erased.id, tx);
      await deps.audit.record(origin, { action: 'lead.personal_data_erased', leadId: erased.id }, tx);
      return true;
    });
  }

  return {
    async eraseLead(origin: AuditOrigin, leadId: string): Promise<void> {
      if (!(await erase(origin, leadId.toLowerCase()))) throw errors.leadNotFound();
    },

    /** Erases (or, dry, only lists) the leads unchanged for the retention period. */
    async purge(options: { dryRun: boolean; origin?: AuditOrigin }) {
      const cutoff = new Date(deps.clock.now().getTime() - deps.retentionDays * dayMs);
      const leadIds: string[] = [];
      if (options.dryRun) {
        leadIds.push(...(await deps.queries.unchangedSince(cutoff, 10_000)));
      } else {
        for (;;) {
          const batch = await deps.queries.unchangedSince(cutoff, purgeBatch);
          for (const id of batch) if (await erase(options.origin ?? retentionOperator, id)) leadIds.push(id);
          if (batch.length < purgeBatch) break;
        }
      }
      return {
        dryRun: options.dryRun,
        cutoff: cutoff.toISOString(),
        retentionDays: deps.retentionDays,
        count: leadIds.length,
        leadIds,
      };
    },
  };
}

export type PersonalDataErasure = ReturnType<typeof createPersonalDataErasure>;
