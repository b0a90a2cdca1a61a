/**
 * The webhooks module as the composition root uses it: endpoints and their service, the delivery
 * worker (a background job) and its metrics, the pruning of old deliveries (another job), the columns it
 * encrypts, and the partner's and the lender's routes to manage endpoints.
 */
import { requireAuth } from '../auth/index.ts';
import type { Config } from '../config/index.ts';
import type { Db } from '../db/index.ts';
import { adminRoutesOf, apiPrefix, type AdminAccess, type ModuleRoutes } from '../http/index.ts';
import { repeatingJob, type Job } from '../jobs/index.ts';
import type { Clock, FieldEncryption } from '../shared/index.ts';
import { createDeliveryWorker, type DeliveryTracer } from './delivery-worker.ts';
import type { Resolver } from './url-policy.ts';
import { createUrlPolicy } from './url-policy.ts';
import { createWebhookMetrics } from './webhook-metrics.ts';
import { createWebhookPruning } from './webhook-pruning.ts';
import { createWebhookSender } from './webhook-sender.ts';
import { createWebhooksRepository } from './webhooks.repository.ts';
import { adminWebhooksRoutes } from './admin-webhooks.routes.ts';
import { webhooksRoutes } from './webhooks.routes.ts';
import { createWebhooksService, webhookEncryptedColumns } from './webhooks.service.ts';

export interface WebhooksModuleDeps {
  config: Config;
  db: Db;
  clock: Clock;
  encryption: FieldEncryption;
  warn: (message: string, error?: unknown) => void;
  /** How webhook hostnames are resolved (tests point a name at 127.0.0.1). */
  resolver?: Resolver;
  tracer?: DeliveryTracer;
  access: AdminAccess;
}

/** The ports of this service and of the servers it is configured with: never a delivery's target. */
function reservedPorts(config: Pick<Config, 'port' | 'databaseUrl' | 'redisUrl'>): number[] {
  const portOfServer = (url: string | undefined, standard: number) => {
    if (!url) return [];
    try {
      return [Number(new URL(url).port) || standard];
    } catch {
      return [standard];
    }
  };
  return [config.port, ...portOfServer(config.databaseUrl, 5432), ...portOfServer(config.redisUrl, 6379)];
}

export function createWebhooksModule(deps: WebhooksModuleDeps) {
  const { config, db, clock, encryption } = deps;
  const repository = createWebhooksRepository(db);
  const policy = createUrlPolicy({
    production: config.environment === 'production',
    resolve: deps.resolver,
    reservedLoopbackPorts: reservedPorts(config),
  });
  const sender = createWebhookSender({ policy, timeoutMs: config.webhookTimeoutMs });
  const metrics = createWebhookMetrics({ repository, clock });
  const worker = createDeliveryWorker({
    repository,
    sender,
    encryption,
    clock,
    timeoutMs: config.webhookTimeoutMs,
    onAttempt: metrics.onAttempt,
    pollMs: config.webhookPollMs,
    concurrency: config.webhookConcurrency,
    perEndpoint: config.webhookConcurrencyPerEndpoint,
    // The migrations' trigger announces every delivery written on this channel (017_webhook_wake.sql).
    listen: (wake) => db.listen('autofin_webhooks', wake),
    warn: deps.warn,
    tracer: deps.tracer,
  });
  const service = createWebhooksService({ repository, encryption, policy, clock, kick: () => worker.kick() });
  // Attempts in flight finish (or are given back untried) when it stops.
  const delivery: Job = { name: 'webhook delivery', start: () => worker.start(), stop: () => worker.stop() };
  const pruning = createWebhookPruning({ repository, clock, retentionDays: config.webhookRetentionDays });
  // Every instance prunes, an hour apart; two at once delete each row once.
  const prune = repeatingJob('webhook pruning', { firstMs: 5 * 60_000, everyMs: 60 * 60_000 }, () =>
    pruning.run().catch((error: unknown) => deps.warn('old webhook deliveries could not be pruned yet', error)),
  );
  const routes: ModuleRoutes = {
    admin: adminRoutesOf(deps.access, (guard) => [adminWebhooksRoutes({ webhooks: service, ...guard })]),
    // A partner's own endpoints, under the API prefix.
    partner: [
      webhooksRoutes({
        service,
        ownerOf: (request) => requireAuth(request).companyId,
        path: '/webhooks',
        locationPrefix: `${apiPrefix}/webhooks`,
        tags: ['webhooks'],
        security: [{ bearerAuth: [] }],
        operationPrefix: '',
        access: 'partner',
      }),
    ],
  };
  return {
    routes,
    service,
    worker,
    metrics,
    /** Deletes finished deliveries and events past their retention (the hourly job's run). */
    prune: () => pruning.run(),
    jobs: [delivery, prune],
    encryptedColumns: webhookEncryptedColumns,
    close: () => sender.close(),
  };
}

export type WebhooksModule = ReturnType<typeof createWebhooksModule>;
