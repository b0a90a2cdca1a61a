/** What other modules and the composition root may use of the webhooks module. */
export { outboxCtes, type OutboxEvent } from './outbox.ts';
export { type WebhooksService } from './webhooks.service.ts';
export { type DeliveryTracer } from './delivery-worker.ts';

export { type Resolver } from './url-policy.ts';
export { webhooksRoutes } from './webhooks.routes.ts';

export { webhookDocumentation } from './webhook-openapi.ts';
export { createWebhooksModule } from './webhooks.module.ts';
