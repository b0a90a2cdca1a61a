/**
 * The lender's outcome routes (docs/lender-api.md): officers and admins set a lead's outcome;
 * analysts, officers and admins read the funnel report. Handlers stay thin.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  errorAnswers,
  ok,
  operation,
  registerAdminGuard,
  requireOperator,
  type OperatorResolver,
  policy,
} from '../http/index.ts';
import type { OutcomesService } from './outcomes.service.ts';
import type { FunnelService } from './funnel.service.ts';
import * as s from './outcomes.schemas.ts';
import { outcomesOperations as docs } from './outcomes.operations.ts';

const tags = ['lender'];
const security = [{ adminToken: [] }];

const outcomeFails = errorAnswers({
  access: 'admin',
  body: true,
  cases: docs.setLeadOutcome.errorCases,
  descriptions: docs.setLeadOutcome.errorDescriptions,
});

const funnelFails = errorAnswers({
  access: 'admin',
  cases: docs.funnelReport.errorCases,
});

export const outcomesRoutes =
  (deps: {
    outcomes: OutcomesService;
    funnel: FunnelService;
    adminToken: string;
    operators: OperatorResolver;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerAdminGuard(app, deps.adminToken, deps.operators);

    app.post(
      '/admin/leads/:leadId/outcome',
      {
        config: policy({ roles: ['officer'] }),
        schema: {
          tags,
          security,
          ...operation(docs, 'setLeadOutcome'),
          params: s.OutcomeLeadParams,
          body: s.OutcomeRequest,
          response: {
            200: ok('admin', s.OperatorOutcome, 'The outcome now, with its note and history.'),
            ...outcomeFails,
          },
        },
      },
      async (request, reply) => {
        const { operatorId } = requireOperator(request);
        const origin = { operatorId, requestId: request.id, clientAddress: request.ip };
        reply.header('cache-control', 'no-store');
        return deps.outcomes.record(origin, request.params.leadId, request.body);
      },
    );

    app.get(
      '/admin/reports/funnel',
      {
        config: policy({ roles: ['analyst', 'officer'] }),
        schema: {
          tags,
          security,
          ...operation(docs, 'funnelReport'),
          querystring: s.FunnelQuery,
          response: {
            200: ok('admin', s.FunnelReport, 'One line per company with leads in the window, and the totals.'),
            ...funnelFails,
          },
        },
      },
      async (request) => deps.funnel.report(request.query),
    );
  };
