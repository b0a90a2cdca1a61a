/**
 * What the OpenAPI document says of each webhook endpoint operation, keyed by the partner's operationId
 * (the lender's ids add the `admin` prefix).
 */
import { errors, errorCase, operationTable, type ErrorCases } from '../http/index.ts';

/** The error cases every webhook endpoint operation shares. */
const webhookCases: ErrorCases = {
  400: [errorCase('A refused URL', errors.invalidInput([{ field: 'url', errorDetail: 'must be an https URL' }]))],
  404: [
    errorCase("Unknown endpoint, or another company's", errors.webhookEndpointNotFound()),
    errorCase('Unknown delivery', errors.webhookDeliveryNotFound()),
  ],
};

export const webhooksOperations = operationTable({
  createWebhookEndpoint: {
    summary: 'Subscribe an endpoint to lead events',
    description:
      'Answers 201 with the endpoint and its signing `secret` (shown only here) and a `Location`. A refused URL is ' +
      '400 / 40015 on `url`.',
    errorCases: webhookCases,
  },
  listWebhookEndpoints: {
    summary: 'List webhook endpoints',
    errorCases: webhookCases,
  },
  getWebhookEndpoint: {
    summary: 'Read a webhook endpoint',
    errorCases: webhookCases,
  },
  updateWebhookEndpoint: {
    summary: 'Change a webhook endpoint',
    description: 'URL, event types, description, enabled. Enabling again starts a fresh count of failing days.',
    errorCases: webhookCases,
  },
  deleteWebhookEndpoint: {
    summary: 'Delete a webhook endpoint and its delivery log',
    errorCases: webhookCases,
  },
  rotateWebhookSecret: {
    summary: 'Rotate the signing secret',
    description: 'For 24 hours every delivery carries two signatures, one per secret.',
    errorCases: webhookCases,
  },
  testWebhookEndpoint: {
    summary: 'Send a webhook.test event to this endpoint',
    errorCases: webhookCases,
  },
  listWebhookDeliveries: {
    summary: 'The delivery log of an endpoint',
    description: 'Newest first, every attempt with its status code and duration; pages with `limit` and `cursor`.',
    errorCases: webhookCases,
  },
  retryWebhookDelivery: {
    summary: 'Try a delivery again now',
    errorCases: webhookCases,
  },
});
