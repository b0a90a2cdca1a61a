/**
 * The lender's own webhook endpoints (every company's events), their deliveries, a redelivery and a
 * test event. A new endpoint's signing secret is shown once, on the answer to its POST.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError } from '../http/index.ts';
import type { WebhooksService } from '../webhooks/index.ts';
import { uuidPattern } from '../shared/index.ts';
import { noticeOf, pageContext, refusal, seeOther, sendPage } from './console-request.ts';
import { webhookPage, webhooksPage } from './webhooks.views.ts';
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
const NewEndpoint = Type.Object({
  _csrf: Type.String(),
  url: Type.String({ minLength: 1, maxLength: 2000 }),
  description: Type.Optional(Type.String({ maxLength: 200 })),
});
const Csrf = Type.Object({ _csrf: Type.String() });

export const webhooksRoutes =
  (deps: WebhooksPagesDeps): FastifyPluginAsync =>
  async (app) => {
    const { webhooks } = deps;

    async function list(request: FastifyRequest, reply: FastifyReply, notice?: Notice, status?: number) {
      const endpoints = await webhooks.list(lender);
      const shown = webhooksPage(pageContext(request, reply), endpoints.items, notice ?? noticeOf(request));
      return sendPage(reply, shown, status);
    }

    async function show(request: FastifyRequest, reply: FastifyReply, endpointId: string, secret?: string) {
      const [endpoint, deliveries] = await Promise.all([
        webhooks.get(lender, endpointId),
        webhooks.deliveries(lender, endpointId, { limit: 50 }),
      ]);
      const notice = noticeOf(request);
      const shown = webhookPage(pageContext(request, reply), { endpoint, deliveries, secret, notice });
      return sendPage(reply, shown);
    }

    app.get('/webhooks', { schema: { hide: true } }, (request, reply) => list(request, reply));

    app.post<{ Body: Static<typeof NewEndpoint> }>(
      '/webhooks',
      { schema: { hide: true, body: NewEndpoint } },
      async (request, reply) => {
        try {
          const created = await webhooks.create(lender, {
            url: request.body.url.trim(),
            description: request.body.description?.trim() || null,
          });
          return await show(request, reply, created.id, created.secret);
        } catch (error) {
          if (!(error instanceof AppError) || error.statusCode !== 400) throw error;
          return list(request, reply, { kind: 'error', text: refusal(error) }, 400);
        }
      },
    );

    app.get<{ Params: Static<typeof EndpointParams> }>(
      '/webhooks/:endpointId',
      { schema: { hide: true, params: EndpointParams } },
      (request, reply) => show(request, reply, request.params.endpointId.toLowerCase()),
    );

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
