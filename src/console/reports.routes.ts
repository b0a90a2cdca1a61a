/** `/console/reports`: the funnel report for every signed-in operator (analysts, officers, admins). */
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { CompaniesService } from '../companies/index.ts';
import type { FunnelService } from '../outcomes/index.ts';
import { uuidPattern } from '../shared/index.ts';
import { everyone, pageContext, sendPage } from './console-request.ts';
import { dayRefusal, mexicoCityDayEnd, mexicoCityDayStart } from './console-days.ts';
import { calendarDate } from './format.ts';
import { reportsPage, type ReportFieldErrors, type ReportFilter } from './reports.views.ts';

export interface ReportsPagesDeps {
  funnel: FunnelService;
  companies: Pick<CompaniesService, 'listCompanies'>;
}

const optional = (pattern: string) =>
  Type.Optional(Type.String({ pattern: `^(?:${pattern.replace(/^\^|\$$/g, '')})?$` }));
const datePattern = '^\\d{4}-\\d{2}-\\d{2}$';
/**
 * Why the filter's days are refused, beside each field: a day that does not exist, or a "Hasta" before
 * "Desde" (a window that would hold nothing).
 */
export function reportFilterErrors(filter: ReportFilter): ReportFieldErrors {
  const from = filter.from === undefined ? undefined : dayRefusal(filter.from, 'Desde');
  const to = filter.to === undefined ? undefined : dayRefusal(filter.to, 'Hasta');
  if (from || to) return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
  if (filter.from && filter.to && filter.to < filter.from)
    return { to: `«Hasta» es anterior a «Desde»: elige el ${calendarDate(filter.from)} o un día posterior.` };
  return {};
}

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
        const errors = reportFilterErrors(filter);
        if (Object.keys(errors).length > 0) {
          const companies = await deps.companies.listCompanies();
          const page = reportsPage(pageContext(request, reply), {
            filter,
            report: null,
            companies: companies.items,
            errors,
          });
          return sendPage(reply, page, 400);
        }
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
