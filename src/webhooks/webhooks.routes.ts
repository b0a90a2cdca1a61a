/**
 * Webhook endpoint routes (docs/webhooks.md). The same routes serve partners, under the partner
 * API for their own company, and the lender, under /admin for every company's events: `ownerOf`
 * tells whose endpoints a request may see. Another owner's endpoint is a 404, never a 403.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { errors, empty, errorAnswers, errorCase, ok, type Access } from '../http/index.ts';
import type { Owner, WebhooksService } from './webhooks.service.ts';
import * as s from './webhooks.schemas.ts';

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

const failsOf = (access: WebhookRoutesOptions['access']) =>
  errorAnswers({
    access,
    body: true,
    cases: {
      400: [errorCase('A refused URL', errors.invalidInput([{ field: 'url', errorDetail: 'must be an https URL' }]))],
      404: [
        errorCase("Unknown endpoint, or another company's", errors.webhookEndpointNotFound()),
        errorCase('Unknown delivery', errors.webhookDeliveryNotFound()),
      ],
    },
  });

export const webhooksRoutes =
  (o: WebhookRoutesOptions): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { service, ownerOf, path, tags, security } = o;
    const op = (name: string) =>
      o.operationPrefix ? `${o.operationPrefix}${name}` : `${name[0].toLowerCase()}${name.slice(1)}`;
    const base = { tags, security };
    const fails = failsOf(o.access);

    app.post(
      path,
      {
        schema: {
          ...base,
          operationId: op('CreateWebhookEndpoint'),
          summary: 'Subscribe an endpoint to lead events',
          description:
            'Answers 201 with the endpoint and its signing `secret` (shown only here) and a `Location`. A refused URL is 400 / 40015 on `url`.',
          body: s.WebhookEndpointCreate,
          response: {
            201: ok(o.access, s.WebhookEndpointCreated, 'The endpoint, with its signing secret (shown only here).', [
              'Location',
            ]),
            ...fails,
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
          operationId: op('ListWebhookEndpoints'),
          summary: 'List webhook endpoints',
          response: { 200: ok(o.access, s.WebhookEndpointList, 'The endpoints, without their secrets.'), ...fails },
        },
      },
      async (request) => service.list(ownerOf(request)),
    );

    app.get(
      `${path}/:endpointId`,
      {
        schema: {
          ...base,
          operationId: op('GetWebhookEndpoint'),
          summary: 'Read a webhook endpoint',
          params: s.EndpointParams,
          response: { 200: ok(o.access, s.WebhookEndpoint, 'The endpoint.'), ...fails },
        },
      },
      async (request) => service.get(ownerOf(request), request.params.endpointId),
    );

    app.patch(
      `${path}/:endpointId`,
      {
        schema: {
          ...base,
          operationId: op('UpdateWebhookEndpoint'),
          summary: 'Change a webhook endpoint',
          description: 'URL, event types, description, enabled. Enabling again starts a fresh count of failing days.',
          params: s.EndpointParams,
          body: s.WebhookEndpointUpdate,
          response: { 200: ok(o.access, s.WebhookEndpoint, 'The endpoint as changed.'), ...fails },
        },
      },
      async (request) => service.update(ownerOf(request), request.params.endpointId, request.body),
    );

    app.delete(
      `${path}/:endpointId`,
      {
        schema: {
          ...base,
          operationId: op('DeleteWebhookEndpoint'),
          summary: 'Delete a webhook endpoint and its delivery log',
          params: s.EndpointParams,
          response: { 204: empty(o.access, 'Deleted.'), ...fails },
        },
      },
      async (request, reply) => {
        await service.remove(ownerOf(request), request.params.endpointId);
        return reply.code(204).send(null);
      },
    );

    app.post(
      `${path}/:endpointId/secret/rotate`,
      {
        schema: {
          ...base,
          operationId: op('RotateWebhookSecret'),
          summary: 'Rotate the signing secret',
          description: 'For 24 hours every delivery carries two signatures, one per secret.',
          params: s.EndpointParams,
          response: {
            200: ok(o.access, s.WebhookSecret, 'The new secret; the old one still signs for 24 hours.'),
            ...fails,
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
          operationId: op('TestWebhookEndpoint'),
          summary: 'Send a webhook.test event to this endpoint',
          params: s.EndpointParams,
          response: {
            202: ok(o.access, s.WebhookDeliveryAccepted, 'The test event is queued for delivery.'),
            ...fails,
          },
        },
      },
      async (request, reply) =>
        reply.code(202).send(await service.sendTest(ownerOf(request), request.params.endpointId)),
    );

    app.get(
      `${path}/:endpointId/deliveries`,
      {
        schema: {
          ...base,
          operationId: op('ListWebhookDeliveries'),
          summary: 'The delivery log of an endpoint',
          description:
            'Newest first, every attempt with its status code and duration; pages with `limit` and `cursor`.',
          params: s.EndpointParams,
          querystring: s.DeliveryListQuery,
          response: {
            200: ok(o.access, s.WebhookDeliveryList, 'A page of deliveries, newest first, with their attempts.'),
            ...fails,
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
          operationId: op('RetryWebhookDelivery'),
          summary: 'Try a delivery again now',
          params: s.DeliveryParams,
          response: { 202: ok(o.access, s.WebhookDeliveryAccepted, 'The delivery is queued again.'), ...fails },
        },
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(await service.retry(ownerOf(request), request.params.endpointId, request.params.deliveryId)),
    );
  };
