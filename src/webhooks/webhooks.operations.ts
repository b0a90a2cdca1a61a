/**
 * What the OpenAPI document says of each webhook endpoint operation, keyed by the partner's operationId
 * (the lender's ids add the `admin` prefix).
 */
import { operationTable } from '../http/index.ts';

export const webhooksOperations = operationTable({
  createWebhookEndpoint: {
    summary: 'Subscribe an endpoint to lead events',
    description:
      'Answers 201 with the endpoint and its signing `secret` (shown only here) and a `Location`. A refused URL is ' +
      '400 / 40015 on `url`.',
  },
  listWebhookEndpoints: {
    summary: 'List webhook endpoints',
  },
  getWebhookEndpoint: {
    summary: 'Read a webhook endpoint',
  },
  updateWebhookEndpoint: {
    summary: 'Change a webhook endpoint',
    description: 'URL, event types, description, enabled. Enabling again starts a fresh count of failing days.',
  },
  deleteWebhookEndpoint: {
    summary: 'Delete a webhook endpoint and its delivery log',
  },
  rotateWebhookSecret: {
    summary: 'Rotate the signing secret',
    description: 'For 24 hours every delivery carries two signatures, one per secret.',
  },
  testWebhookEndpoint: {
    summary: 'Send a webhook.test event to this endpoint',
  },
  listWebhookDeliveries: {
    summary: 'The delivery log of an endpoint',
    description: 'Newest first, every attempt with its status code and duration; pages with `limit` and `cursor`.',
  },
  retryWebhookDelivery: {
    summary: 'Try a delivery again now',
  },
});
