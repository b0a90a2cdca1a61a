/**
 * Operators (create with an optional e-mail and password, delete, which ends their sessions) and the
 * audit log: admin-only pages. A new operator's API key is shown once, on the answer to its POST; a
 * refused form answers the same page (400), each message in Spanish beside its field, the values kept
 * (the password typed again); a deletion is confirmed on a page of its own first.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError, errors, type FieldError } from '../http/index.ts';
import type { AuditService } from '../audit/index.ts';
import type { OperatorsService } from '../operators/index.ts';
import { uuidPattern } from '../shared/index.ts';
import type { ConsoleSessions } from './console-sessions.ts';
import { noticeOf, pageContext, requireViewer, seeOther, sendPage } from './console-request.ts';
import { fieldMessage } from './console-messages.ts';
import { auditPage, deleteOperatorPage, operatorsPage, type OperatorFormState } from './operators.views.ts';
import type { Notice } from './layout.ts';

export interface OperatorsPagesDeps {
  operators: OperatorsService;
  audit: AuditService;
  sessions: ConsoleSessions;
}

// Lengths beyond the form's are taken here and refused beside their field (the schema's refusal is a bare page).
const NewOperator = Type.Object({
  _csrf: Type.String(),
  name: Type.String({ maxLength: 2000 }),
  email: Type.Optional(Type.String({ maxLength: 2000 })),
  role: Type.String({ maxLength: 50 }),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
});
type NewOperatorForm = Static<typeof NewOperator>;
const OperatorParams = Type.Object({ operatorId: Type.String({ pattern: uuidPattern }) });
const Csrf = Type.Object({ _csrf: Type.String() });
const AuditQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 200 })) });
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const roles = ['admin', 'analyst', 'officer'] as const;
type Role = (typeof roles)[number];
const isRole = (value: string): value is Role => (roles as readonly string[]).includes(value);

/** The form's own checks, before the service's: each problem by the field it concerns. */
function formProblems(form: NewOperatorForm, email: string | undefined, password: string | undefined): FieldError[] {
  const problems: FieldError[] = [];
  const name = form.name.trim();
  if (name === '') problems.push({ field: 'name', errorDetail: 'must not be blank' });
  else if (name.length > 200) problems.push({ field: 'name', errorDetail: 'must be at most 200 characters' });
  if (email !== undefined && email.length > 320)
    problems.push({ field: 'email', errorDetail: 'must be at most 320 characters' });
  else if (email !== undefined && !emailPattern.test(email))
    problems.push({ field: 'email', errorDetail: 'is not an e-mail address' });
  if (!isRole(form.role)) problems.push({ field: 'role', errorDetail: 'must be one of: admin, analyst, officer' });
  if (password !== undefined && password.length < 12)
    problems.push({ field: 'password', errorDetail: 'must have 12 characters or more' });
  else if (password !== undefined && email === undefined)
    problems.push({ field: 'password', errorDetail: 'requires email' });
  return problems;
}

/** Each refused field's message in Spanish, by the form field it is shown beside. */
function messagesOf(problems: readonly FieldError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const problem of problems) {
    const field = ['name', 'email', 'role', 'password'].includes(problem.field) ? problem.field : 'name';
    out[field] = out[field] ? `${out[field]} ${fieldMessage(problem)}` : fieldMessage(problem);
  }
  return out;
}

const fieldErrorsOf = (error: AppError): FieldError[] =>
  (error.additionalData as { errors?: FieldError[] } | null)?.errors ?? [];

export const operatorsRoutes =
  (deps: OperatorsPagesDeps): FastifyPluginAsync =>
  async (app) => {
    async function show(
      request: FastifyRequest,
      reply: FastifyReply,
      extra: {
        created?: { name: string; key: string };
        notice?: Notice;
        status?: number;
        form?: OperatorFormState;
      } = {},
    ) {
      const list = await deps.operators.list();
      return sendPage(
        reply,
        operatorsPage(pageContext(request, reply), {
          operators: list.items,
          self: requireViewer(request).operatorId,
          created: extra.created,
          notice: extra.notice ?? noticeOf(request),
          form: extra.form,
        }),
        extra.status,
      );
    }

    app.get('/operators', { schema: { hide: true } }, (request, reply) => show(request, reply));

    app.post<{ Body: NewOperatorForm }>(
      '/operators',
      { schema: { hide: true, body: NewOperator } },
      async (request, reply) => {
        const form = request.body;
        const email = form.email?.trim() || undefined;
        const password = form.password || undefined;
        const refuse = (problems: readonly FieldError[]) =>
          show(request, reply, { form: { values: form, errors: messagesOf(problems) }, status: 400 });
        const problems = formProblems(form, email, password);
        if (problems.length > 0 || !isRole(form.role)) return refuse(problems);
        try {
          const created = await deps.operators.create({ name: form.name.trim(), role: form.role, email, password });
          return await show(request, reply, { created: { name: created.name, key: created.key } });
        } catch (error) {
          if (!(error instanceof AppError) || error.statusCode !== 400) throw error;
          return refuse(fieldErrorsOf(error));
        }
      },
    );

    /** The operator to delete, from the list (an unknown or deleted one is not found). */
    async function operatorToDelete(operatorId: string) {
      const operator = (await deps.operators.list()).items.find((o) => o.id === operatorId);
      if (!operator) throw errors.operatorNotFound();
      return operator;
    }
    const selfRefused = (request: FastifyRequest, reply: FastifyReply) =>
      show(request, reply, { notice: { kind: 'error', text: 'No puedes borrarte a ti mismo.' }, status: 400 });

    app.get<{ Params: Static<typeof OperatorParams> }>(
      '/operators/:operatorId/delete',
      { schema: { hide: true, params: OperatorParams } },
      async (request, reply) => {
        const operatorId = request.params.operatorId.toLowerCase();
        if (operatorId === requireViewer(request).operatorId) return selfRefused(request, reply);
        const operator = await operatorToDelete(operatorId);
        return sendPage(reply, deleteOperatorPage(pageContext(request, reply), operator));
      },
    );

    app.post<{ Params: Static<typeof OperatorParams>; Body: Static<typeof Csrf> }>(
      '/operators/:operatorId/delete',
      { schema: { hide: true, params: OperatorParams, body: Csrf } },
      async (request, reply) => {
        const operatorId = request.params.operatorId.toLowerCase();
        if (operatorId === requireViewer(request).operatorId) return selfRefused(request, reply);
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
          ['admin-token', 'Token de administración'],
          ...operators.items.map((o) => [o.id, o.name] as [string, string]),
        ]);
        return sendPage(reply, auditPage(pageContext(request, reply), records, names));
      },
    );
  };
