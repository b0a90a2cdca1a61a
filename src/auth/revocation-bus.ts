/**
 * Tells every instance that a credential was revoked, so each forgets its cached status at once.
 * Local only without Redis; through Redis pub/sub when REDIS_URL is set. Redis is never waited for:
 * the message is published in the background, and the subscription (re)connects by itself. A message
 * lost while Redis is down is covered by the short life of the cached status (credential-status-cache.ts).
 */
import type { Redis } from 'ioredis';

export interface RevocationBus {
  publish(consumerKey: string): void;
  close(): Promise<void>;
}

export function createLocalRevocationBus(onRevoked: (consumerKey: string) => void): RevocationBus {
  return {
    publish(consumerKey) {
      onRevoked(consumerKey);
    },
    async close() {},
  };
}

export function createRedisRevocationBus(
  redis: Redis,
  environment: string,
  onRevoked: (consumerKey: string) => void,
  warn: (message: string, error?: unknown) => void,
): RevocationBus {
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
    if (ch === channel) onRevoked(message);
  });
  subscriber.subscribe(channel).catch((error) => warn('revocation subscription failed', error));
  return {
    publish(consumerKey) {
      onRevoked(consumerKey);
      redis.publish(channel, consumerKey).catch((error) => warn('revocation not published', error));
    },
    async close() {
      subscriber.disconnect();
    },
  };
}
