/**
 * The lender's outcome routes (docs/lender-api.md): officers and admins set a lead's outcome;
 * analysts, officers and admins read the funnel report. Handlers stay thin.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '../http/app-error.ts';
import { errorAnswers, errorCase, ok } from '../http/openapi-answers.ts';
import { registerAdminGuard, requireOperator, type OperatorResolver } from '../http/admin-guard.ts';
import { policy } from '../http/route-policy.ts';
import type { OutcomesService } from './outcomes.service.ts';
import type { FunnelService } from './funnel.service.ts';
import * as s from './outcomes.schemas.ts';
import { operation } from '../http/operation.ts';
import { outcomesOperations as docs } from './outcomes.operations.ts';

const tags = ['lender'];
const security = [{ adminToken: [] }];

const outcomeFails = errorAnswers({
  access: 'admin',
  body: true,
  cases: {
    400: [
      errorCase(
        'A field the status needs, or one it does not take',
        errors.invalidInput([{ field: 'conditions', errorDetail: 'is required when status is CONDITIONED' }]),
      ),
      errorCase(
        'An invalid condition',
        errors.invalidInput([
          {
            field: 'conditions.0.code',
            errorDetail:
              'must be one of: PROOF_OF_INCOME, PROOF_OF_ADDRESS, OFFICIAL_ID, LARGER_DOWN_PAYMENT, CO_SIGNER, OTHER',
          },
        ]),
      ),
    ],
    404: [errorCase('No such lead', errors.leadNotFound())],
    409: [
      errorCase(
        'The outcome may not move to that status, or the lead is not verified',
        errors.outcomeTransition('APPROVED', 'CONDITIONED'),
      ),
    ],
  },
  descriptions: { 403: 'An analyst: only officers and admins set outcomes.' },
});

const funnelFails = errorAnswers({
  access: 'admin',
  cases: {
    400: [
      errorCase(
        'Invalid window',
        errors.invalidInput([
          { field: 'createdFrom', errorDetail: 'must be an ISO 8601 date or date-time of the years 0001–9999' },
        ]),
      ),
    ],
  },
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
