/**
 * Operators (create with an optional e-mail and password, delete, which ends their sessions) and the
 * audit log: admin-only pages. A new operator's API key is shown once, on the answer to its POST.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError, errors } from '../http/index.ts';
import type { AuditService } from '../audit/index.ts';
import type { OperatorsService } from '../operators/index.ts';
import { uuidPattern } from '../shared/index.ts';
import type { ConsoleSessions } from './console-sessions.ts';
import { noticeOf, pageContext, refusal, requireViewer, seeOther, sendPage } from './console-request.ts';
import { auditPage, operatorsPage } from './operators.views.ts';
import type { Notice } from './layout.ts';

export interface OperatorsPagesDeps {
  operators: OperatorsService;
  audit: AuditService;
  sessions: ConsoleSessions;
}

const NewOperator = Type.Object({
  _csrf: Type.String(),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.Optional(Type.String({ maxLength: 320 })),
  role: Type.Union([Type.Literal('admin'), Type.Literal('analyst'), Type.Literal('officer')]),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
});
const OperatorParams = Type.Object({ operatorId: Type.String({ pattern: uuidPattern }) });
const Csrf = Type.Object({ _csrf: Type.String() });
const AuditQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 200 })) });
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const operatorsRoutes =
  (deps: OperatorsPagesDeps): FastifyPluginAsync =>
  async (app) => {
    async function show(
      request: FastifyRequest,
      reply: FastifyReply,
      extra: { created?: { name: string; key: string }; notice?: Notice; status?: number } = {},
    ) {
      const list = await deps.operators.list();
      return sendPage(
        reply,
        operatorsPage(pageContext(request, reply), {
          operators: list.items,
          self: requireViewer(request).operatorId,
          created: extra.created,
          notice: extra.notice ?? noticeOf(request),
        }),
        extra.status,
      );
    }

    app.get('/operators', { schema: { hide: true } }, (request, reply) => show(request, reply));

    app.post<{ Body: Static<typeof NewOperator> }>(
      '/operators',
      { schema: { hide: true, body: NewOperator } },
      async (request, reply) => {
        const email = request.body.email?.trim() || undefined;
        const password = request.body.password || undefined;
        try {
          const problems = [];
          if (email !== undefined && !emailPattern.test(email))
            problems.push({ field: 'email', errorDetail: 'is not an e-mail address' });
          if (password !== undefined && password.length < 12)
            problems.push({ field: 'password', errorDetail: 'must have 12 characters or more' });
          if (problems.length) throw errors.invalidInput(problems);
          const name = request.body.name.trim();
          const created = await deps.operators.create({ name, role: request.body.role, email, password });
          return await show(request, reply, { created: { name: created.name, key: created.key } });
        } catch (error) {
          if (!(error instanceof AppError) || error.statusCode !== 400) throw error;
          return show(request, reply, { notice: { kind: 'error', text: refusal(error) }, status: 400 });
        }
      },
    );

    app.post<{ Params: Static<typeof OperatorParams>; Body: Static<typeof Csrf> }>(
      '/operators/:operatorId/delete',
      { schema: { hide: true, params: OperatorParams, body: Csrf } },
      async (request, reply) => {
        const operatorId = request.params.operatorId.toLowerCase();
        if (operatorId === requireViewer(request).operatorId) {
          return show(request, reply, {
            notice: { kind: 'error', text: 'No puedes borrarte a ti mismo.' },
            status: 400,
          });
        }
        await deps.operators.remove(operatorId);
        await deps.sessions.endAllOf(operatorId);
        return seeOther(reply, '/console/operators?notice=operator-deleted');
      },
    );

    app.get<{ Querystring: Static<typeof AuditQuery> }>(
      '/audit',
      { schema: { hide: true, querystring: AuditQuery } },
      async (request, reply) => {
        const [records, operators] = await Promise.all([
          deps.audit.list({ limit: 50, cursor: request.query.cursor || undefined }),
          deps.operators.list(),
        ]);
        const names = new Map<string, string>([
          ['admin-token', 'ADMIN_TOKEN'],
          ...operators.items.map((o) => [o.id, o.name] as [string, string]),
        ]);
        return sendPage(reply, auditPage(pageContext(request, reply), records, names));
      },
    );
  };
