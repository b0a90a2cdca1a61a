/** Request and response schemas of the webhook routes (partner and lender share them). */
import { Type, type TSchema } from 'typebox';
import { uuidPattern } from '../shared/index.ts';
import { leadEventTypes } from './outbox.ts';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const at = '2026-01-15T12:00:00.000Z';
const secretExample = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const EventTypes = Type.Array(Type.Enum(leadEventTypes), {
  minItems: 1,
  maxItems: leadEventTypes.length,
  uniqueItems: true,
  description: 'Event types to receive; absent or null: every type.',
});
const url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'In production an https URL to a public address.',
});
const description = Type.String({ maxLength: 500 });

export const WebhookEndpointCreate = Type.Object(
  { url, eventTypes: Type.Optional(nullable(EventTypes)), description: Type.Optional(nullable(description)) },
  {
    $id: 'WebhookEndpointCreate',
    additionalProperties: false,
    examples: [
      { url: 'http://127.0.0.1:8080/hooks/autofin', eventTypes: ['lead.verified', 'lead.prequalification_decided'] },
    ],
  },
);

export const WebhookEndpointUpdate = Type.Object(
  {
    url: Type.Optional(url),
    eventTypes: Type.Optional(nullable(EventTypes)),
    description: Type.Optional(nullable(description)),
    enabled: Type.Optional(Type.Boolean()),
  },
  { $id: 'WebhookEndpointUpdate', additionalProperties: false, minProperties: 1, examples: [{ enabled: true }] },
);

const endpointFields = {
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  eventTypes: nullable(Type.Array(Type.String())),
  description: nullable(Type.String()),
  enabled: Type.Boolean({ description: 'False after a 410 Gone, 5 days of failures, or by choice.' }),
  createdAt: Type.String({ format: 'date-time' }),
};
const endpointExample = {
  id,
  url: 'https://partner.example/hooks/autofin',
  eventTypes: null,
  description: null,
  enabled: true,
  createdAt: at,
};

export const WebhookEndpoint = Type.Object(endpointFields, { $id: 'WebhookEndpoint', examples: [endpointExample] });

export const WebhookEndpointCreated = Type.Object(
  { ...endpointFields, secret: Type.String({ description: 'The signing secret, shown only here and on rotation.' }) },
  { $id: 'WebhookEndpointCreated', examples: [{ ...endpointExample, secret: secretExample }] },
);

export const WebhookEndpointList = Type.Object(
  { items: Type.Array(WebhookEndpoint) },
  { $id: 'WebhookEndpointList', examples: [{ items: [endpointExample] }] },
);

export const WebhookSecret = Type.Object(
  { secret: Type.String({ description: 'The new secret; the previous one keeps signing for 24 hours.' }) },
  { $id: 'WebhookSecret', examples: [{ secret: secretExample }] },
);

export const WebhookDeliveryAccepted = Type.Object(
  { deliveryId: Type.String({ format: 'uuid' }) },
  { $id: 'WebhookDeliveryAccepted', examples: [{ deliveryId: id }] },
);

const Attempt = Type.Object({
  at: Type.String({ format: 'date-time' }),
  statusCode: nullable(Type.Integer({ description: 'Null when no answer came (timeout, refused, network error).' })),
  durationMs: Type.Integer(),
  error: nullable(Type.String()),
});

export const WebhookDeliveryList = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        id: Type.String({ format: 'uuid' }),
        eventId: Type.String({ format: 'uuid', description: 'The webhook-id header of every attempt.' }),
        eventType: Type.String(),
        status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
        attempts: Type.Array(Attempt),
        nextAttemptAt: nullable(Type.String({ format: 'date-time' })),
      }),
    ),
    nextCursor: nullable(Type.String()),
  },
  {
    $id: 'WebhookDeliveryList',
    examples: [
      {
        items: [
          {
            id,
            eventId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
            eventType: 'lead.verified',
            status: 'pending',
            nextAttemptAt: '2026-01-15T12:00:05.000Z',
            attempts: [{ at, statusCode: 500, durationMs: 41, error: null }],
          },
        ],
        nextCursor: null,
      },
    ],
  },
);

export const EndpointParams = Type.Object({ endpointId: Type.String({ pattern: uuidPattern }) });
export const DeliveryParams = Type.Object({
  endpointId: Type.String({ pattern: uuidPattern }),
  deliveryId: Type.String({ pattern: uuidPattern }),
});
export const DeliveryListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
