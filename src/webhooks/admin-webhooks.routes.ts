/**
 * The lender's webhook endpoints under /admin/webhooks: events of every company. A plugin of its
 * own, so the guard that protects the admin API protects it the same way.
 */
import type { FastifyPluginAsync } from 'fastify';
import { registerAdminGuard } from '../http/admin-guard.ts';
import type { WebhooksService } from './webhooks.service.ts';
import { webhooksRoutes } from './webhooks.routes.ts';

export const adminWebhooksRoutes =
  (deps: { webhooks: WebhooksService; adminToken: string }): FastifyPluginAsync =>
  async (app) => {
    registerAdminGuard(app, deps.adminToken);
    await app.register(webhooksRoutes({
      service: deps.webhooks, ownerOf: () => null, path: '/admin/webhooks', locationPrefix: '/admin/webhooks',
      tags: ['admin'], security: [{ adminToken: [] }], operationPrefix: 'admin',
    }));
  };
