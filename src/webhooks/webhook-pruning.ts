/**
 * The webhook tables do not grow without bound (docs/operations.md, "Webhooks"): deliveries that succeeded
 * or were given up are deleted once older than `WEBHOOK_RETENTION_DAYS`, then the events no delivery refers
 * to any more, older than the same. Pending deliveries and their events always stay. Batches of 1,000 rows,
 * each its own statement, so no lock is held for long and writes go on beside it.
 */
import type { Clock } from '../shared/index.ts';
import type { WebhooksRepository } from './webhooks.repository.ts';

const batch = 1_000;
const day = 86_400_000;

export interface Pruned {
  deliveries: number;
  events: number;
}

export function createWebhookPruning(deps: {
  repository: Pick<WebhooksRepository, 'pruneFinishedDeliveries' | 'pruneEvents'>;
  clock: Clock;
  retentionDays: number;
}) {
  /** Deletes in batches until a batch comes back short; how many rows went. */
  async function drain(prune: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await prune(batch);
      total += count;
      if (count < batch) return total;
    }
  }

  return {
    /** One pruning run: what is older than the retention, as of now. */
    async run(): Promise<Pruned> {
      const cutoff = new Date(deps.clock.now().getTime() - deps.retentionDays * day);
      const deliveries = await drain((limit) => deps.repository.pruneFinishedDeliveries(cutoff, limit));
      const events = await drain((limit) => deps.repository.pruneEvents(cutoff, limit));
      return { deliveries, events };
    },
  };
}
