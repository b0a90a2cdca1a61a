/** What other modules and the composition root may use of the webhooks module. */
export { leadEventTypes, outboxCtes, type LeadEventType, type OutboxEvent } from './outbox.ts';
export { createWebhooksService, webhookEncryptedColumns, type WebhooksService } from './webhooks.service.ts';
export { createDeliveryWorker, type DeliveryTracer, type DeliveryWorker } from './delivery-worker.ts';
export { createWebhookSender } from './webhook-sender.ts';
export { createUrlPolicy, type Resolver } from './url-policy.ts';
export { webhooksRoutes } from './webhooks.routes.ts';
export { adminWebhooksRoutes } from './admin-webhooks.routes.ts';
export { createWebhookMetrics } from './webhook-metrics.ts';
export { webhookDocumentation } from './webhook-openapi.ts';
export { createWebhooksModule, type WebhooksModule } from './webhooks.module.ts';
