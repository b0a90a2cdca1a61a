/**
 * Webhook metrics: attempts by outcome (counted by this process), and, read from the database when
 * scraped, deliveries by status and the age of the oldest delivery that is due and still pending
 * (how far behind the workers of every instance are).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock } from '../shared/index.ts';
import type { WebhooksRepository } from './webhooks.repository.ts';

export function createWebhookMetrics(deps: { repository: Pick<WebhooksRepository, 'stats'>; clock: Clock }) {
  const attempts = new Counter({
    name: 'autofin_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome',
    labelNames: ['outcome'],
    registers: [],
  });
  const deliveries = new Gauge({
    name: 'autofin_webhook_deliveries',
    help: 'Webhook deliveries by status',
    labelNames: ['status'],
    registers: [],
    async collect() {
      const stats = await deps.repository.stats(deps.clock.now());
      for (const status of ['pending', 'succeeded', 'failed']) this.set({ status }, stats.byStatus[status] ?? 0);
      oldest.set(stats.oldestPendingSeconds);
    },
  });
  const oldest = new Gauge({
    name: 'autofin_webhook_oldest_pending_seconds',
    help: 'Age of the oldest due webhook delivery still pending',
    registers: [],
  });
  return {
    onAttempt: (outcome: string) => attempts.inc({ outcome }),
    register(registry: Registry) {
      registry.registerMetric(attempts);
      registry.registerMetric(deliveries);
      registry.registerMetric(oldest);
    },
  };
}
