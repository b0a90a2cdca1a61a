/** GET /admin/audit (admin only): who read, exported or erased personal data. Nothing deletes it. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../http/error-response.ts';
import { registerAdminGuard, type OperatorResolver } from '../http/admin-guard.ts';
import type { AuditService } from './audit.service.ts';
import * as s from './audit.schemas.ts';

export const auditRoutes =
  (deps: { audit: AuditService; adminToken: string; operators: OperatorResolver }): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerAdminGuard(app, deps.adminToken, deps.operators);
    app.get('/admin/audit', {
      schema: {
        tags: ['audit'], security: [{ adminToken: [] }], operationId: 'listAuditRecords', summary: 'Audit of personal-data access, newest first',
        querystring: s.AuditQuery,
        response: { 200: s.AuditList, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    }, async (request) => deps.audit.list(request.query));
  };
