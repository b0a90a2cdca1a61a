/** `/console/reports`: the funnel report for every signed-in operator (analysts, officers, admins). */
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { CompaniesService } from '../companies/index.ts';
import type { FunnelService } from '../outcomes/index.ts';
import { uuidPattern } from '../shared/index.ts';
import { everyone, pageContext, sendPage } from './console-request.ts';
import { dayRefusals, mexicoCityDayEnd, mexicoCityDayStart } from './console-days.ts';
import { errorPage } from './error.views.ts';
import { reportsPage, type ReportFilter } from './reports.views.ts';

export interface ReportsPagesDeps {
  funnel: FunnelService;
  companies: Pick<CompaniesService, 'listCompanies'>;
}

const optional = (pattern: string) =>
  Type.Optional(Type.String({ pattern: `^(?:${pattern.replace(/^\^|\$$/g, '')})?$` }));
const datePattern = '^\\d{4}-\\d{2}-\\d{2}$';
const ReportQuery = Type.Object({
  from: optional(datePattern),
  to: optional(datePattern),
  companyId: optional(uuidPattern),
});

export const reportsRoutes =
  (deps: ReportsPagesDeps): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Querystring: Static<typeof ReportQuery> }>(
      '/reports',
      { config: everyone, schema: { hide: true, querystring: ReportQuery } },
      async (request, reply) => {
        const q = request.query;
        const filter: ReportFilter = {
          from: q.from || undefined,
          to: q.to || undefined,
          companyId: q.companyId || undefined,
        };
        const refused = dayRefusals(filter);
        if (refused) return sendPage(reply, errorPage(pageContext(request, reply), 400, refused), 400);
        // Days are Mexico City's, "Hasta" included, as in the inbox (console-days.ts).
        const [report, companies] = await Promise.all([
          deps.funnel.report({
            createdFrom: filter.from && mexicoCityDayStart(filter.from),
            createdTo: filter.to && mexicoCityDayEnd(filter.to),
            companyId: filter.companyId,
          }),
          deps.companies.listCompanies(),
        ]);
        const context = pageContext(request, reply);
        return sendPage(reply, reportsPage(context, { filter, report, companies: companies.items }));
      },
    );
  };
