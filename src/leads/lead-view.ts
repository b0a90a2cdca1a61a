/** What a partner reads of a lead (docs/api.md, "Reading leads"). Never the PIN, never the bureau report. */
import { catDisclosure } from '../prequalification/index.ts';
import { affiliateOf, type Lead } from './lead-record.ts';
import type { LeadRow } from './leads.repository.ts';

export function leadView(lead: Lead) {
  const prequalification = lead.prequalification;
  return {
    id: lead.id,
    status: lead.status,
    createdAt: lead.createdAt.toISOString(),
    updatedAt: lead.updatedAt.toISOString(),
    externalAutoId: lead.externalAutoId,
    affiliate: lead.affiliate,
    loanInfo: lead.loanInfo,
    contact: lead.phone === null && lead.email === null ? null : { phone: lead.phone, email: lead.email },
    address: lead.address,
    vehicle: lead.vehicle,
    financial: lead.financial,
    person: lead.person,
    warnings: lead.warnings.map(({ code, message, field }) => ({ code, message, field })),
    verification: lead.verification,
    prequalification: prequalification
      ? {
          decision: prequalification.decision,
          reasons: prequalification.reasons,
          offer: prequalification.offer
            ? {
                ...prequalification.offer,
                catDisclosure: catDisclosure(prequalification.offer.cat, new Date(prequalification.evaluatedAt)),
              }
            : null,
          evaluatedAt: prequalification.evaluatedAt,
        }
      : null,
    erasedAt: lead.erasedAt?.toISOString() ?? null,
  };
}

/** The lead list shows the sections' presence, not their personal content. */
export function leadSummaryView(row: LeadRow) {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    externalAutoId: row.external_auto_id,
    affiliate: affiliateOf(row),
    decision: (row.prequalification as { decision?: string } | null)?.decision ?? null,
    outcomeStatus: row.outcome_status ?? null,
  };
}
