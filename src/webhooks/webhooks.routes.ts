/**
 * Webhook endpoint routes (docs/webhooks.md). The same routes serve partners, under the partner
 * API for their own company, and the lender, under /admin for every company's events: `ownerOf`
 * tells whose endpoints a request may see. Another owner's endpoint is a 404, never a 403.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { empty, errorAnswers, ok, type Access, operation } from '../http/index.ts';
import type { Owner, WebhooksService } from './webhooks.service.ts';
import * as s from './webhooks.schemas.ts';
import { webhooksOperations as docs } from './webhooks.operations.ts';

export interface WebhookRoutesOptions {
  service: WebhooksService;
  ownerOf: (request: FastifyRequest) => Owner;
  /** The routes' path (`/webhooks` under the partner prefix, or `/admin/webhooks`). */
  path: string;
  /** The full path for `Location` headers. */
  locationPrefix: string;
  tags: string[];
  security: Record<string, string[]>[];
  /** Prefix of every operationId, so partner and lender operations stay distinct. */
  operationPrefix: string;
  /** Partners' routes count against the company's rate limit; the lender's are admin routes. */
  access: Extract<Access, 'partner' | 'admin'>;
}

type App = Parameters<FastifyPluginAsyncTypebox>[0];

/** What every route of a registration shares: its operationIds, tags, security and error answers. */
function scopeOf(o: WebhookRoutesOptions) {
  const op = (name: string) =>
    o.operationPrefix ? `${o.operationPrefix}${name}` : `${name[0].toLowerCase()}${name.slice(1)}`;
  /** The error answers of operation `id`, from its entry in the table. */
  const fails = (id: keyof typeof docs) => errorAnswers({ access: o.access, body: true, cases: docs[id].errorCases });
  return { ...o, op, base: { tags: o.tags, security: o.security }, fails };
}

export const webhooksRoutes =
  (o: WebhookRoutesOptions): FastifyPluginAsyncTypebox =>
  async (app) => {
    endpointRoutes(app, o);
    secretAndDeliveryRoutes(app, o);
  };

/** Create, list, read, change and delete endpoints. */
function endpointRoutes(app: App, o: WebhookRoutesOptions) {
  const { service, ownerOf, path, op, base, fails } = scopeOf(o);

  app.post(
    path,
    {
      schema: {
        ...base,
        ...operation(docs, 'createWebhookEndpoint', op('CreateWebhookEndpoint')),
        body: s.WebhookEndpointCreate,
        response: {
          201: ok(o.access, s.WebhookEndpointCreated, 'The endpoint, with its signing secret (shown only here).', [
            'Location',
          ]),
          ...fails('createWebhookEndpoint'),
        },
      },
    },
    async (request, reply) => {
      const created = await service.create(ownerOf(request), request.body);
      return reply.code(201).header('location', `${o.locationPrefix}/${created.id}`).send(created);
    },
  );

  app.get(
    path,
    {
      schema: {
        ...base,
        ...operation(docs, 'listWebhookEndpoints', op('ListWebhookEndpoints')),
        response: {
          200: ok(o.access, s.WebhookEndpointList, 'The endpoints, without their secrets.'),
          ...fails('listWebhookEndpoints'),
        },
      },
    },
    async (request) => service.list(ownerOf(request)),
  );

  app.get(
    `${path}/:endpointId`,
    {
      schema: {
        ...base,
        ...operation(docs, 'getWebhookEndpoint', op('GetWebhookEndpoint')),
        params: s.EndpointParams,
        response: { 200: ok(o.access, s.WebhookEndpoint, 'The endpoint.'), ...fails('getWebhookEndpoint') },
      },
    },
    async (request) => service.get(ownerOf(request), request.params.endpointId),
  );

  app.patch(
    `${path}/:endpointId`,
    {
      schema: {
        ...base,
        ...operation(docs, 'updateWebhookEndpoint', op('UpdateWebhookEndpoint')),
        params: s.EndpointParams,
        body: s.WebhookEndpointUpdate,
        response: {
          200: ok(o.access, s.WebhookEndpoint, 'The endpoint as changed.'),
          ...fails('updateWebhookEndpoint'),
        },
      },
    },
    async (request) => service.update(ownerOf(request), request.params.endpointId, request.body),
  );

  app.delete(
    `${path}/:endpointId`,
    {
      schema: {
        ...base,
        ...operation(docs, 'deleteWebhookEndpoint', op('DeleteWebhookEndpoint')),
        params: s.EndpointParams,
        response: { 204: empty(o.access, 'Deleted.'), ...fails('deleteWebhookEndpoint') },
      },
    },
    async (request, reply) => {
      await service.remove(ownerOf(request), request.params.endpointId);
      return reply.code(204).send(null);
    },
  );
}

/** An endpoint's secret rotation, test event and delivery log. */
function secretAndDeliveryRoutes(app: App, o: WebhookRoutesOptions) {
  const { service, ownerOf, path, op, base, fails } = scopeOf(o);

  app.post(
    `${path}/:endpointId/secret/rotate`,
    {
      schema: {
        ...base,
        ...operation(docs, 'rotateWebhookSecret', op('RotateWebhookSecret')),
        params: s.EndpointParams,
        response: {
          200: ok(o.access, s.WebhookSecret, 'The new secret; the old one still signs for 24 hours.'),
          ...fails('rotateWebhookSecret'),
        },
      },
    },
    async (request) => service.rotateSecret(ownerOf(request), request.params.endpointId),
  );

  app.post(
    `${path}/:endpointId/test`,
    {
      schema: {
        ...base,
        ...operation(docs, 'testWebhookEndpoint', op('TestWebhookEndpoint')),
        params: s.EndpointParams,
        response: {
          202: ok(o.access, s.WebhookDeliveryAccepted, 'The test event is queued for delivery.'),
          ...fails('testWebhookEndpoint'),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await service.sendTest(ownerOf(request), request.params.endpointId)),
  );

  app.get(
    `${path}/:endpointId/deliveries`,
    {
      schema: {
        ...base,
        ...operation(docs, 'listWebhookDeliveries', op('ListWebhookDeliveries')),
        params: s.EndpointParams,
        querystring: s.DeliveryListQuery,
        response: {
          200: ok(o.access, s.WebhookDeliveryList, 'A page of deliveries, newest first, with their attempts.'),
          ...fails('listWebhookDeliveries'),
        },
      },
    },
    async (request) => service.deliveries(ownerOf(request), request.params.endpointId, request.query),
  );

  app.post(
    `${path}/:endpointId/deliveries/:deliveryId/retry`,
    {
      schema: {
        ...base,
        ...operation(docs, 'retryWebhookDelivery', op('RetryWebhookDelivery')),
        params: s.DeliveryParams,
        response: {
          202: ok(o.access, s.WebhookDeliveryAccepted, 'The delivery is queued again.'),
          ...fails('retryWebhookDelivery'),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.retry(ownerOf(request), request.params.endpointId, request.params.deliveryId)),
  );
}
