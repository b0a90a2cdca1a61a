/**
 * The inbox (`/console/leads`: filters, counts per status, pages) and a lead's page
 * (`/console/leads/{leadId}`), whose every opening is audited like the API's read.
 */
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { leadStatuses, type LeadStatus } from '../lead-status/index.ts';
import { uuidPattern } from '../shared/index.ts';
import { everyone, noticeOf, pageContext, sendPage } from './console-request.ts';
import { dayRefusals, mexicoCityDayEnd, mexicoCityDayStart } from './console-days.ts';
import { errorPage } from './error.views.ts';
import { inboxPage, type InboxFilter } from './leads.views.ts';
import { sendLeadPage, type LeadPageDeps } from './lead-page.ts';
import { OUTCOME_STATUSES, type OutcomeStatus } from '../outcomes/index.ts';

export type LeadsPagesDeps = LeadPageDeps;

const optional = (pattern: string) =>
  Type.Optional(Type.String({ pattern: `^(?:${pattern.replace(/^\^|\$$/g, '')})?$` }));
const datePattern = '^\\d{4}-\\d{2}-\\d{2}$';
const InboxQuery = Type.Object({
  status: optional(`^(?:${leadStatuses.join('|')})$`),
  decision: optional('^(?:PREQUALIFIED|NOT_PREQUALIFIED|INCOMPLETE)$'),
  outcome: optional(`^(?:${OUTCOME_STATUSES.join('|')})$`),
  companyId: optional(uuidPattern),
  from: optional(datePattern),
  to: optional(datePattern),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
  notice: Type.Optional(Type.String({ maxLength: 50 })),
});
const LeadParams = Type.Object({ leadId: Type.String({ pattern: uuidPattern }) });

export const leadsRoutes =
  (deps: LeadsPagesDeps): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Querystring: Static<typeof InboxQuery> }>(
      '/leads',
      { config: everyone, schema: { hide: true, querystring: InboxQuery } },
      async (request, reply) => {
        const q = request.query;
        const filter: InboxFilter = {
          status: q.status || undefined,
          decision: q.decision || undefined,
          companyId: q.companyId || undefined,
          from: q.from || undefined,
          to: q.to || undefined,
          outcome: q.outcome || undefined,
        };
        const refused = dayRefusals(filter);
        if (refused) return sendPage(reply, errorPage(pageContext(request, reply), 400, refused), 400);
        // "Hasta" includes its whole day in Mexico City.
        const query = {
          status: filter.status as LeadStatus | undefined,
          decision: filter.decision,
          companyId: filter.companyId,
          outcome: filter.outcome as OutcomeStatus | undefined,
          createdFrom: filter.from && mexicoCityDayStart(filter.from),
          createdTo: filter.to && mexicoCityDayEnd(filter.to),
        };
        const [leads, counts, companies] = await Promise.all([
          deps.lenderLeads.inbox({ ...query, limit: 25, cursor: q.cursor || undefined }),
          deps.lenderLeads.statusCounts(query),
          deps.companies.listCompanies(),
        ]);
        return sendPage(
          reply,
          inboxPage(pageContext(request, reply), {
            filter,
            leads,
            counts,
            companies: companies.items,
            notice: noticeOf(request),
          }),
        );
      },
    );

    app.get<{ Params: Static<typeof LeadParams> }>(
      '/leads/:leadId',
      { config: everyone, schema: { hide: true, params: LeadParams } },
      async (request, reply) => {
        return sendLeadPage(deps, request, reply, request.params.leadId);
      },
    );
  };
