/**
 * The lender's own webhook endpoints (every company's events), their deliveries, a redelivery and a
 * test event; disable, enable, rotate the secret, delete (confirmed on a page of its own first), with
 * the service the admin API uses. A new or rotated signing secret is shown once, on the answer to its
 * POST. A refused "Nuevo receptor" form answers the list again (400), each message in Spanish beside
 * its field and the values kept.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError, type FieldError } from '../http/index.ts';
import type { WebhooksService } from '../webhooks/index.ts';
import { uuidPattern } from '../shared/index.ts';
import { pageContext, seeOther, sendPage } from './console-request.ts';
import { fieldMessage } from './console-messages.ts';
import { webhookNoticeOf, type WebhookNoticeKey } from './webhooks-notices.ts';
import { deleteWebhookPage, webhookPage, webhooksPage, type ShownSecret } from './webhooks.views.ts';
import type { Notice } from './layout.ts';

export interface WebhooksPagesDeps {
  webhooks: WebhooksService;
}

/** The lender's endpoints belong to no company. */
const lender = null;

const EndpointParams = Type.Object({ endpointId: Type.String({ pattern: uuidPattern }) });
const DeliveryParams = Type.Object({
  endpointId: Type.String({ pattern: uuidPattern }),
  deliveryId: Type.String({ pattern: uuidPattern }),
});
// Lengths beyond the form's are taken here and refused beside their field (the schema's refusal is a bare page).
const NewEndpoint = Type.Object({
  _csrf: Type.String(),
  url: Type.String({ maxLength: 10000 }),
  description: Type.Optional(Type.String({ maxLength: 10000 })),
});
type NewEndpointForm = Static<typeof NewEndpoint>;
const Csrf = Type.Object({ _csrf: Type.String() });

/** The form's own checks, before the service's (which checks the address). */
function formProblems(url: string, description: string | undefined): FieldError[] {
  const problems: FieldError[] = [];
  if (url === '') problems.push({ field: 'url', errorDetail: 'is required' });
  else if (url.length > 2000) problems.push({ field: 'url', errorDetail: 'must be at most 2000 characters' });
  if (description !== undefined && description.length > 200)
    problems.push({ field: 'description', errorDetail: 'must be at most 200 characters' });
  return problems;
}

/** Each refused field's message in Spanish, by the form field it is shown beside. */
function messagesOf(problems: readonly FieldError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const problem of problems) {
    const field = problem.field === 'description' ? 'description' : 'url';
    out[field] = out[field] ? `${out[field]} ${fieldMessage(problem)}` : fieldMessage(problem);
  }
  return out;
}

const fieldErrorsOf = (error: AppError): FieldError[] =>
  (error.additionalData as { errors?: FieldError[] } | null)?.errors ?? [];

/** The summary above the page: every message, in Spanish (each is also beside its field). */
const summaryOf = (problems: readonly FieldError[]): Notice => ({
  kind: 'error',
  text: `No se pudo guardar: ${problems.map((p) => fieldMessage(p)).join(' ')}`,
});

type ShowEndpoint = (
  request: FastifyRequest,
  reply: FastifyReply,
  endpointId: string,
  secret?: ShownSecret,
) => Promise<FastifyReply>;

/** Disable, enable, rotate the secret (shown once by `show`) and delete after a confirmation page. */
function endpointChanges(app: FastifyInstance, webhooks: WebhooksService, show: ShowEndpoint): void {
  for (const [action, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    app.post<{ Params: Static<typeof EndpointParams>; Body: Static<typeof Csrf> }>(
      `/webhooks/:endpointId/${action}`,
      { schema: { hide: true, params: EndpointParams, body: Csrf } },
      async (request, reply) => {
        const endpointId = request.params.endpointId.toLowerCase();
        await webhooks.update(lender, endpointId, { enabled });
        const notice: WebhookNoticeKey = enabled ? 'endpoint-enabled' : 'endpoint-disabled';
        return seeOther(reply, `/console/webhooks/${endpointId}?notice=${notice}`);
      },
    );
  }

  // The new secret is shown once, on this answer, as a new endpoint's is.
  app.post<{ Params: Static<typeof EndpointParams>; Body: Static<typeof Csrf> }>(
    '/webhooks/:endpointId/rotate-secret',
    { schema: { hide: true, params: EndpointParams, body: Csrf } },
    async (request, reply) => {
      const endpointId = request.params.endpointId.toLowerCase();
      const { secret } = await webhooks.rotateSecret(lender, endpointId);
      return show(request, reply, endpointId, { value: secret, rotated: true });
    },
  );

  app.get<{ Params: Static<typeof EndpointParams> }>(
    '/webhooks/:endpointId/delete',
    { schema: { hide: true, params: EndpointParams } },
    async (request, reply) => {
      const endpoint = await webhooks.get(lender, request.params.endpointId.toLowerCase());
      return sendPage(reply, deleteWebhookPage(pageContext(request, reply), endpoint));
    },
  );

  app.post<{ Params: Static<typeof EndpointParams>; Body: Static<typeof Csrf> }>(
    '/webhooks/:endpointId/delete',
    { schema: { hide: true, params: EndpointParams, body: Csrf } },
    async (request, reply) => {
      await webhooks.remove(lender, request.params.endpointId.toLowerCase());
      return seeOther(reply, '/console/webhooks?notice=endpoint-deleted');
    },
  );
}

export const webhooksRoutes =
  (deps: WebhooksPagesDeps): FastifyPluginAsync =>
  async (app) => {
    const { webhooks } = deps;

    async function list(
      request: FastifyRequest,
      reply: FastifyReply,
      refused?: { form: NewEndpointForm; problems: readonly FieldError[] },
    ) {
      const endpoints = await webhooks.list(lender);
      const context = pageContext(request, reply);
      if (!refused) return sendPage(reply, webhooksPage(context, endpoints.items, webhookNoticeOf(request)));
      const form = { values: refused.form, errors: messagesOf(refused.problems) };
      return sendPage(reply, webhooksPage(context, endpoints.items, summaryOf(refused.problems), form), 400);
    }

    async function show(request: FastifyRequest, reply: FastifyReply, endpointId: string, secret?: ShownSecret) {
      const [endpoint, deliveries] = await Promise.all([
        webhooks.get(lender, endpointId),
        webhooks.deliveries(lender, endpointId, { limit: 50 }),
      ]);
      const notice = webhookNoticeOf(request);
      const shown = webhookPage(pageContext(request, reply), { endpoint, deliveries, secret, notice });
      return sendPage(reply, shown);
    }

    app.get('/webhooks', { schema: { hide: true } }, (request, reply) => list(request, reply));

    app.post<{ Body: NewEndpointForm }>(
      '/webhooks',
      { schema: { hide: true, body: NewEndpoint } },
      async (request, reply) => {
        const form = request.body;
        const url = form.url.trim();
        const description = form.description?.trim() || undefined;
        const problems = formProblems(url, description);
        if (problems.length > 0) return list(request, reply, { form, problems });
        try {
          const created = await webhooks.create(lender, { url, description: description ?? null });
          return await show(request, reply, created.id, { value: created.secret, rotated: false });
        } catch (error) {
          if (!(error instanceof AppError) || error.statusCode !== 400) throw error;
          return list(request, reply, { form, problems: fieldErrorsOf(error) });
        }
      },
    );

    app.get<{ Params: Static<typeof EndpointParams> }>(
      '/webhooks/:endpointId',
      { schema: { hide: true, params: EndpointParams } },
      (request, reply) => show(request, reply, request.params.endpointId.toLowerCase()),
    );

    endpointChanges(app, webhooks, show);

    app.post<{ Params: Static<typeof EndpointParams>; Body: Static<typeof Csrf> }>(
      '/webhooks/:endpointId/test',
      { schema: { hide: true, params: EndpointParams, body: Csrf } },
      async (request, reply) => {
        const endpointId = request.params.endpointId.toLowerCase();
        await webhooks.sendTest(lender, endpointId);
        return seeOther(reply, `/console/webhooks/${endpointId}?notice=test-queued`);
      },
    );

    app.post<{ Params: Static<typeof DeliveryParams>; Body: Static<typeof Csrf> }>(
      '/webhooks/:endpointId/deliveries/:deliveryId/redeliver',
      { schema: { hide: true, params: DeliveryParams, body: Csrf } },
      async (request, reply) => {
        const endpointId = request.params.endpointId.toLowerCase();
        await webhooks.retry(lender, endpointId, request.params.deliveryId);
        return seeOther(reply, `/console/webhooks/${endpointId}?notice=redelivery-queued`);
      },
    );
  };
