/** Operators of the admin API (docs/lender-api.md): admin only. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, empty, errorAnswers, errorCase, ok, registerAdminGuard } from '../http/index.ts';
import type { OperatorsService } from './operators.service.ts';
import * as s from './operators.schemas.ts';
import { operation } from '../http/index.ts';
import { operatorsOperations as docs } from './operators.operations.ts';

const invalid = errorCase('Invalid input', errors.invalidInput([{ field: 'password', errorDetail: 'requires email' }]));
const noOperator = errorCase('No such operator', errors.operatorNotFound());
const errorsOf = errorAnswers({ access: 'admin', body: true, cases: { 400: [invalid], 404: [noOperator] } });

export const operatorsRoutes =
  (deps: { operators: OperatorsService; adminToken: string }): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerAdminGuard(app, deps.adminToken, deps.operators);
    const tags = ['operators'];
    const security = [{ adminToken: [] }];

    app.post(
      '/admin/operators',
      {
        schema: {
          tags,
          security,
          ...operation(docs, 'createOperator'),
          body: s.OperatorCreate,
          response: { 201: ok('admin', s.OperatorWithKey, 'The operator and its key (shown only here).'), ...errorsOf },
        },
      },
      async (request, reply) => reply.code(201).send(await deps.operators.create(request.body)),
    );

    app.get(
      '/admin/operators',
      {
        schema: {
          tags,
          security,
          ...operation(docs, 'listOperators'),
          response: { 200: ok('admin', s.OperatorList, 'Every operator.'), ...errorsOf },
        },
      },
      async () => deps.operators.list(),
    );

    app.delete(
      '/admin/operators/:operatorId',
      {
        schema: {
          tags,
          security,
          ...operation(docs, 'deleteOperator'),
          params: s.OperatorIdParams,
          response: { 204: empty('admin', 'Deleted; its key answers 401 from now on.'), ...errorsOf },
        },
      },
      async (request, reply) => {
        await deps.operators.remove(request.params.operatorId);
        return reply.code(204).send(null);
      },
    );
  };
