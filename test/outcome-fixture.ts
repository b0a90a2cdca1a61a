/**
 * Test helpers of the outcome routes: verified leads in numbers (copies of one lead verified through
 * the API, each with its own id, company, status and creation time, without the sealed personal
 * sections), and outcome calls.
 */
import assert from 'node:assert/strict';
import { show, type TestApp } from './helper.ts';
import { newId } from '../src/shared/ids.ts';
import type { LeadStatus } from '../src/lead-status/index.ts';
import { verifiedLead } from './lender-fixture.ts';

/** A valid body of each status. */
export const bodies = {
  IN_REVIEW: { status: 'IN_REVIEW' },
  CONDITIONED: {
    status: 'CONDITIONED',
    conditions: [{ code: 'PROOF_OF_INCOME', description: 'Últimos 3 recibos de nómina' }],
  },
  APPROVED: { status: 'APPROVED', amountApproved: 250000 },
  DECLINED: { status: 'DECLINED', reasonCode: 'CREDIT_POLICY' },
  FUNDED: { status: 'FUNDED', amountFunded: 240000.5 },
  WITHDRAWN: { status: 'WITHDRAWN', reasonCode: 'CUSTOMER_DECLINED' },
} as const;

/** A view's conditions without their ids and statuses: what was asked, as the request wrote it. */
export const codesAndDescriptions = (conditions: unknown) =>
  (conditions as { code: string; description: string }[] | null | undefined)?.map(({ code, description }) => ({
    code,
    description,
  }));

export type LeadCopies = (options?: { status?: LeadStatus; createdAt?: Date; companyId?: string }) => Promise<string>;

/** Verifies one lead through the API, then makes copies of it straight in its table. */
export async function leadCopies(t: TestApp): Promise<LeadCopies> {
  const { leadId } = await verifiedLead(t, 'SMS');
  const stored = await t.leads.repository.find(leadId, t.partner.companyId);
  assert.ok(stored);
  const { verification: _v, prequalification: _p, outcome_status: _o, ...template } = stored;
  return async (options = {}) => {
    const id = newId();
    const at = options.createdAt ?? new Date();
    await t.leads.repository.insert(
      {
        ...template,
        id,
        status: options.status ?? 'PREQUALIFIED',
        company_id: options.companyId ?? template.company_id,
        affiliate_user_id: null,
        affiliate_user_type: null,
        created_at: at,
        updated_at: at,
        // Sealed sections are bound to their lead's id: copies carry none.
        phone_enc: null,
        phone_fp: null,
        email_enc: null,
        address_enc: null,
        financial_enc: null,
        person_enc: null,
      },
      { id: newId(), leadId: id, type: 'LEAD_CREATED', at, actor: 'test', fields: [] },
      { id: newId(), type: 'lead.created' },
    );
    return id;
  };
}

export const setOutcome = (t: TestApp, leadId: string, body: object, headers: Record<string, string> = t.admin) =>
  t.app.inject({ method: 'POST', url: `/admin/leads/${leadId}/outcome`, headers, payload: body });

/** The operator view of the lead's outcome (null when none), read through the lender's API. */
export async function operatorOutcome(t: TestApp, leadId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/admin/leads/${leadId}`, headers: t.admin });
  assert.equal(res.statusCode, 200, show(res));
  type View = { status: string; note: string | null; history: { status: string }[]; [k: string]: unknown };
  return res.json().outcome as View | null;
}
