/**
 * Tells every instance that a credential was revoked, so each forgets what it cached of it at once (the
 * auth module's credential status). Local only without Redis; through Redis pub/sub when REDIS_URL is
 * set. Redis is never waited for: the message is published in the background, and the subscription
 * (re)connects by itself. A message lost while Redis is down is covered by the short life of a cached
 * status (docs/api.md).
 */
import type { Redis } from 'ioredis';

export type RevocationListener = (consumerKey: string) => void;

export interface RevocationBus {
  publish(consumerKey: string): void;
  /** Calls `listener` with every credential revoked on any instance, this one included. */
  subscribe(listener: RevocationListener): void;
  close(): Promise<void>;
}

function listeners() {
  const all = new Set<RevocationListener>();
  return {
    add: (listener: RevocationListener) => void all.add(listener),
    tell: (consumerKey: string) => all.forEach((listener) => listener(consumerKey)),
  };
}

export function createLocalRevocationBus(): RevocationBus {
  const { add, tell } = listeners();
  return { publish: tell, subscribe: add, async close() {} };
}

export function createRedisRevocationBus(
  redis: Redis,
  environment: string,
  warn: (message: string, error?: unknown) => void,
): RevocationBus {
  const { add, tell } = listeners();
  const channel = `autofin:${environment}:credential-revoked`;
  // Its own connection (a subscribed connection serves nothing else), which queues the subscription
  // until Redis answers and subscribes again after each reconnection.
  const subscriber = redis.duplicate({
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    commandTimeout: undefined,
  });
  subscriber.on('error', (error) => warn('redis unavailable', error));
  subscriber.on('message', (ch: string, message: string) => {
    if (ch === channel) tell(message);
  });
  subscriber.subscribe(channel).catch((error) => warn('revocation subscription failed', error));
  return {
    publish(consumerKey) {
      tell(consumerKey);
      redis.publish(channel, consumerKey).catch((error) => warn('revocation not published', error));
    },
    subscribe: add,
    async close() {
      subscriber.disconnect();
    },
  };
}
