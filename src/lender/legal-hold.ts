/**
 * The lender's legal hold of a lead (docs/lender-api.md, "Erasure and retention"): while it lasts, neither a
 * request nor the retention purge erases the lead's personal data. Setting and releasing it are audited.
 */
import { errors } from '../http/index.ts';
import type { Clock } from '../shared/index.ts';
import type { LeadLifecycle, LenderLeadQueries } from '../leads/index.ts';
import type { AuditOrigin, AuditService } from '../audit/index.ts';

interface Deps {
  leads: Pick<LeadLifecycle, 'setLegalHold' | 'releaseLegalHold'>;
  queries: Pick<LenderLeadQueries, 'find'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
}

export function createLegalHolds(deps: Deps) {
  return {
    /**
     * Sets the hold (a second one replaces the reason and keeps `since`): the reason is kept trimmed, one of
     * spaces only is a 400; 404 / 4040 for an unknown lead. The hold is one update of the lead's row: it waits
     * for an erasure that has locked the row, and an erasure that locks the row after it is refused.
     */
    async set(origin: AuditOrigin, leadId: string, reason: string) {
      const id = leadId.toLowerCase();
      if (reason.trim() === '') throw errors.invalidInput([{ field: 'reason', errorDetail: 'must not be blank' }]);
      const hold = await deps.leads.setLegalHold(id, {
        reason: reason.trim(),
        since: deps.clock.now().toISOString(),
        operatorId: origin.operatorId,
      });
      if (!hold) throw errors.leadNotFound();
      await deps.audit.record(origin, { action: 'legal_hold_set', leadId: id });
      return hold;
    },

    /** The lead's hold: 404 / 4040 when the lead is unknown or has none. */
    async get(leadId: string) {
      const row = await deps.queries.find(leadId.toLowerCase());
      if (!row) throw errors.leadNotFound();
      if (!row.legal_hold) throw errors.legalHoldNotFound();
      return row.legal_hold;
    },

    /** Releases the hold: 404 / 4040 when the lead is unknown or has none. */
    async release(origin: AuditOrigin, leadId: string) {
      const id = leadId.toLowerCase();
      if (!(await deps.leads.releaseLegalHold(id))) {
        throw (await deps.queries.find(id)) ? errors.legalHoldNotFound() : errors.leadNotFound();
      }
      await deps.audit.record(origin, { action: 'legal_hold_released', leadId: id });
    },
  };
}

export type LegalHolds = ReturnType<typeof createLegalHolds>;
