/**
 * The lender's webhook endpoints under /admin/webhooks: events of every company. A plugin of its
 * own, so the guard that protects the admin API protects it the same way.
 */
import type { FastifyPluginAsync } from 'fastify';
import { registerAdminGuard, type OperatorResolver } from '../http/index.ts';
import type { WebhooksService } from './webhooks.service.ts';
import { webhooksRoutes } from './webhooks.routes.ts';

export const adminWebhooksRoutes =
  (deps: { webhooks: WebhooksService; adminToken: string; operators?: OperatorResolver }): FastifyPluginAsync =>
  async (app) => {
    // Admin role only: an analyst's key is 403 / 4030 here.
    registerAdminGuard(app, deps.adminToken, deps.operators);
    await app.register(
      webhooksRoutes({
        service: deps.webhooks,
        ownerOf: () => null,
        path: '/admin/webhooks',
        locationPrefix: '/admin/webhooks',
        tags: ['admin'],
        security: [{ adminToken: [] }],
        operationPrefix: 'admin',
        access: 'admin',
      }),
    );
  };
