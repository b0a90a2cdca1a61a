/**
 * A lead's page as one function: what its GET shows (every opening audited, as the API's read) and
 * what a refused decision form answers, the same page with the form as the officer left it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CompaniesService } from '../companies/index.ts';
import type { DocumentsService } from '../documents/index.ts';
import type { LenderLeadsService } from '../lender/index.ts';
import type { OperatorsService } from '../operators/index.ts';
import { isVerified } from '../lead-status/index.ts';
import { roleAllows } from '../shared/index.ts';
import { noticeOf, originOf, pageContext, sendPage } from './console-request.ts';
import { documentsSection } from './documents.views.ts';
import { leadPage } from './leads.views.ts';
import { outcomeSection, type OutcomeFormState } from './outcome.views.ts';

export interface LeadPageDeps {
  lenderLeads: LenderLeadsService;
  companies: Pick<CompaniesService, 'listCompanies'>;
  documents: Pick<DocumentsService, 'list'>;
  /** Operators' names, for the decision's history. */
  operators: Pick<OperatorsService, 'list'>;
}

/** Operators by id, read only when the lead has a decision whose history names them. */
async function operatorNames(deps: LeadPageDeps, lead: LeadRead): Promise<ReadonlyMap<string, string>> {
  if (!lead.outcome) return new Map();
  const { items } = await deps.operators.list();
  return new Map(items.map((o) => [o.id, o.name]));
}

export type LeadRead = Awaited<ReturnType<LenderLeadsService['read']>>;

/** A refused decision: the answer's status and the form's state, which may depend on the lead as it is now. */
export interface RefusedDecision {
  status: 400 | 409;
  form: (lead: LeadRead) => OutcomeFormState;
}

export async function sendLeadPage(
  deps: LeadPageDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  leadId: string,
  refused?: RefusedDecision,
): Promise<FastifyReply> {
  const lead = await deps.lenderLeads.read(originOf(request), leadId);
  const [companies, documents, names] = await Promise.all([
    deps.companies.listCompanies(),
    deps.documents.list(lead.id),
    operatorNames(deps, lead),
  ]);
  const company = companies.items.find((c) => c.id === lead.companyId);
  const context = pageContext(request, reply);
  const canDecide = roleAllows(context.viewer?.role ?? 'analyst', ['officer']);
  const outcome = outcomeSection({
    csrf: context.csrf,
    leadId: lead.id,
    outcome: lead.outcome,
    verified: isVerified(lead.status),
    canDecide,
    operatorNames: names,
    form: refused?.form(lead),
  });
  const answers = documentsSection({
    csrf: context.csrf,
    leadId: lead.id,
    conditions: lead.outcome?.conditions ?? [],
    documents,
    canReview: canDecide,
  });
  const parts = { companyName: company?.name, documents: answers, decision: outcome };
  const page = leadPage(context, lead, parts, noticeOf(request));
  return sendPage(reply, page, refused?.status ?? 200);
}
