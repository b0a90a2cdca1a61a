/** GET /admin/audit (admin only): who read, exported or erased personal data. Nothing deletes it. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, errorAnswers, errorCase, ok, registerAdminGuard, type OperatorResolver } from '../http/index.ts';
import type { AuditService } from './audit.service.ts';
import * as s from './audit.schemas.ts';
import { operation } from '../http/index.ts';
import { auditOperations as docs } from './audit.operations.ts';

const fails = errorAnswers({
  access: 'admin',
  cases: {
    400: [
      errorCase(
        'Invalid cursor',
        errors.invalidInput([{ field: 'cursor', errorDetail: 'is not a cursor of this list' }]),
      ),
    ],
  },
});

export const auditRoutes =
  (deps: { audit: AuditService; adminToken: string; operators: OperatorResolver }): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerAdminGuard(app, deps.adminToken, deps.operators);
    app.get(
      '/admin/audit',
      {
        schema: {
          tags: ['audit'],
          security: [{ adminToken: [] }],
          ...operation(docs, 'listAuditRecords'),
          querystring: s.AuditQuery,
          response: { 200: ok('admin', s.AuditList, 'A page of audit records, newest first.'), ...fails },
        },
      },
      async (request) => deps.audit.list(request.query),
    );
  };
