/**
 * What other modules do to a lead, through its owner: read or lock it, move it along the verified path
 * (PIN sent, verified, bureau report received, pre-qualified) and erase its personal data. Each move
 * writes the columns, the history entry and the webhook event in one statement (leads.repository.ts
 * `transition`), inside the caller's transaction with the lead locked: no other module writes the
 * leads table or its history. Pre-qualification is applied here, with the pure evaluator given.
 */
import type { Db, Queryable } from '../db/index.ts';
import { type Clock, newId } from '../shared/index.ts';
import type { BureauReport } from '../bureau/index.ts';
import type { PrequalificationInput, PrequalificationResult } from '../prequalification/index.ts';
import { afterPinConfirmed, afterPinSent, afterPrequalification, type LeadStatus } from '../lead-status/index.ts';
import type { Lead, LeadSealer, StoredPrequalification, Verification } from './lead-record.ts';
import type { LeadEvent, LeadsRepository, LegalHold, Transition } from './leads.repository.ts';
import type { Actor } from './actor.ts';

export interface TransitionContext {
  leadId: string;
  companyId: string;
  /** The consumer key that made the change (history only). */
  actor: string;
  at: Date;
}

/** Pre-qualification of what a lead knows, on `now` (the rules' thresholds already bound). */
export type Prequalify = (input: PrequalificationInput, now: Date) => PrequalificationResult;

interface Deps {
  db: Pick<Db, 'transaction'>;
  repository: LeadsRepository;
  sealer: LeadSealer;
  reports: { reportOf(leadId: string, tx?: Queryable): Promise<BureauReport | undefined> };
  prequalify: Prequalify;
  clock: Clock;
}

/** What pre-qualification reads of a lead and its report. */
export function toPrequalificationInput(lead: Lead, report: BureauReport): PrequalificationInput {
  return {
    birthDate: lead.person?.birthDate ?? null,
    loan: lead.loanInfo ? { downPayment: lead.loanInfo.downPayment ?? null, term: lead.loanInfo.term ?? null } : null,
    vehicle: lead.vehicle ? { price: lead.vehicle.price, modelYear: lead.vehicle.year } : null,
    financial: lead.financial
      ? {
          employmentType: lead.financial.employmentType ?? null,
          startEmploymentDate: lead.financial.startEmploymentDate ?? null,
          startDate: lead.financial.startDate ?? null,
          income: lead.financial.income ?? null,
        }
      : null,
    report,
  };
}

/** The lead's change for a pre-qualification result: its columns, history entry and webhook event. */
function prequalificationChange(lead: Lead, result: PrequalificationResult, c: TransitionContext) {
  const prequalification: StoredPrequalification = {
    decision: result.decision,
    reasons: result.reasons,
    offer: result.offer,
    evaluatedAt: c.at.toISOString(),
    explanation: result.explanation,
  };
  return {
    set: { prequalification, status: afterPrequalification(lead.status, prequalification.decision) },
    history: { id: newId(), type: 'PREQUALIFICATION_EVALUATED', actor: c.actor, fields: ['prequalification'] },
    outbox: {
      id: newId(),
      type: 'lead.prequalification_decided',
      decision: prequalification.decision,
      reasons: prequalification.reasons.map((r) => r.code),
    },
  } satisfies Omit<Transition, 'id' | 'companyId' | 'at'>;
}

export function createLeadLifecycle(deps: Deps) {
  const { repository, sealer } = deps;

  function apply(tx: Queryable, c: TransitionContext, change: Omit<Transition, 'id' | 'companyId' | 'at'>) {
    return repository.transition({ id: c.leadId, companyId: c.companyId, at: c.at, ...change }, tx);
  }

  /** Evaluates the lead on its report and records the result: an event on every evaluation, even unchanged. */
  async function prequalify(tx: Queryable, c: TransitionContext, lead: Lead, report: BureauReport): Promise<void> {
    const result = deps.prequalify(toPrequalificationInput(lead, report), c.at);
    await apply(tx, c, prequalificationChange(lead, result, c));
  }

  return {
    /** The company's lead, decrypted. */
    async find(leadId: string, companyId: string, tx?: Queryable): Promise<Lead | undefined> {
      const row = await repository.find(leadId, companyId, tx);
      return row && sealer.read(row, tx);
    },

    /** The company's lead, decrypted and locked until the transaction ends (writes to one lead queue up). */
    async lock(leadId: string, companyId: string, tx: Queryable): Promise<Lead | undefined> {
      const row = await repository.lock(leadId, companyId, tx);
      return row && sealer.read(row, tx);
    },

    /** The lead's history, oldest first. */
    events(leadId: string, tx?: Queryable): Promise<LeadEvent[]> {
      return repository.events(leadId, tx);
    },

    /** A PIN was handed to a provider. False when the lead may no longer get one. */
    async recordPinSent(
      tx: Queryable,
      c: TransitionContext,
      current: LeadStatus,
      channel: Verification['channel'],
    ): Promise<boolean> {
      const status = afterPinSent(current);
      if (!status) return false;
      return apply(tx, c, {
        set: { status, verification: { channel, pinSentAt: c.at.toISOString(), verifiedAt: null } },
        history: { id: newId(), type: 'PIN_SENT', actor: c.actor, fields: ['channel'] },
        outbox: { id: newId(), type: 'lead.pin_sent' },
      });
    },

    /** The PIN was confirmed; nothing happens when the lead was not waiting for one. */
    async recordVerified(
      tx: Queryable,
      c: TransitionContext,
      current: LeadStatus,
      verification: Verification,
    ): Promise<boolean> {
      const status = afterPinConfirmed(current);
      if (!status) return false;
      return apply(tx, c, {
        set: { status, verification: { ...verification, verifiedAt: c.at.toISOString() } },
        history: { id: newId(), type: 'PIN_CONFIRMED', actor: c.actor, fields: ['pin'] },
        outbox: { id: newId(), type: 'lead.verified' },
      });
    },

    /** The bureau's report of the locked lead was stored: its history entry, then its pre-qualification. */
    async recordReport(tx: Queryable, c: TransitionContext, lead: Lead, report: BureauReport): Promise<void> {
      await apply(tx, c, {
        set: {},
        history: { id: newId(), type: 'BUREAU_REPORT_RECEIVED', actor: c.actor, fields: [] },
      });
      await prequalify(tx, c, lead, report);
    },

    /** Re-evaluates a verified lead on its stored report; nothing to do before a report exists. */
    async reevaluate(actor: Actor, leadId: string): Promise<void> {
      await deps.db.transaction(async (tx) => {
        const row = await repository.lock(leadId, actor.companyId, tx);
        const report = row && (await deps.reports.reportOf(leadId, tx));
        if (!row || !report) return;
        const context = { leadId: row.id, companyId: actor.companyId, actor: actor.consumerKey, at: deps.clock.now() };
        await prequalify(tx, context, await sealer.read(row, tx), report);
      });
    },

    /** The lender's legal hold of the lead (docs/lender-api.md, "Erasure and retention"). */
    setLegalHold: (leadId: string, hold: LegalHold) => repository.setLegalHold(leadId, hold),
    releaseLegalHold: (leadId: string) => repository.releaseLegalHold(leadId),

    /** Any company's lead, locked until the erasure's transaction ends (a hold's or outcome's write waits). */
    lockForErasure: (leadId: string, tx: Queryable) => repository.lockById(leadId, tx),
    /** Erases the lead's personal data (lender or retention) with its history entry; undefined for an unknown lead. */
    erasePersonalData(leadId: string, at: Date, actor: string, tx: Queryable): Promise<{ id: string } | undefined> {
      return repository.erasePersonalData(
        leadId,
        at,
        { id: newId(), type: 'PERSONAL_DATA_ERASED', actor, fields: ['contact', 'address', 'financial', 'person'] },
        tx,
      );
    },
  };
}

export type LeadLifecycle = ReturnType<typeof createLeadLifecycle>;
