/**
 * Evaluates a verified lead on its stored bureau report and keeps the result on the lead. It runs
 * after the PIN confirmation and again whenever loan info, vehicle or financial data change.
 */
import type { Db, Queryable } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import type { Bureau, BureauReport } from '../bureau/index.ts';
import { recordPrequalification, type Actor, type Lead, type LeadSealer, type LeadsRepository, type StoredPrequalification } from '../leads/index.ts';
import { evaluatePrequalification, type PrequalificationInput } from './evaluate.ts';
import type { PrequalificationConfig } from './rules-config.ts';

interface Deps {
  db: Pick<Db, 'transaction'>;
  leads: LeadsRepository;
  reports: Pick<Bureau, 'reportOf'>;
  sealer: LeadSealer;
  config: PrequalificationConfig;
  clock: Clock;
}

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

export function createPrequalificationService(deps: Deps) {
  function evaluate(lead: Lead, report: BureauReport, now: Date): StoredPrequalification {
    const result = evaluatePrequalification(toPrequalificationInput(lead, report), deps.config, now);
    return {
      decision: result.decision, reasons: result.reasons, offer: result.offer, evaluatedAt: now.toISOString(),
      explanation: result.explanation,
    };
  }

  /** Inside the caller's transaction, with the lead row locked. */
  async function apply(
    tx: Queryable,
    actor: Actor,
    lead: Lead,
    report: BureauReport,
    now: Date,
  ): Promise<StoredPrequalification> {
    const prequalification = evaluate(lead, report, now);
    await recordPrequalification(
      tx,
      { leadId: lead.id, companyId: actor.companyId, actor: actor.consumerKey, at: now },
      lead.status,
      prequalification,
    );
    return prequalification;
  }

  return {
    apply,

    /** Re-evaluates a verified lead on its stored report; nothing to do before a report exists. */
    async reevaluate(actor: Actor, leadId: string): Promise<void> {
      await deps.db.transaction(async (tx) => {
        const row = await deps.leads.lock(leadId, actor.companyId, tx);
        const report = row && (await deps.reports.reportOf(leadId, tx));
        if (!row || !report) return;
        await apply(tx, actor, deps.sealer.toLead(row), report, deps.clock.now());
      });
    },
  };
}

export type PrequalificationService = ReturnType<typeof createPrequalificationService>;
