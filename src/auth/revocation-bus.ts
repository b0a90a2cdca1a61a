/**
 * Tells every instance that a credential was revoked, so each forgets its cached status at once.
 * Local only without Redis; through Redis pub/sub when REDIS_URL is set.
 */
import type { Redis } from 'ioredis';

export interface RevocationBus {
  publish(consumerKey: string): Promise<void>;
  close(): Promise<void>;
}

export function createLocalRevocationBus(onRevoked: (consumerKey: string) => void): RevocationBus {
  return {
    async publish(consumerKey) {
      onRevoked(consumerKey);
    },
    async close() {},
  };
}

export async function createRedisRevocationBus(
  redis: Redis,
  environment: string,
  onRevoked: (consumerKey: string) => void,
): Promise<RevocationBus> {
  const channel = `autofin:${environment}:credential-revoked`;
  const subscriber = redis.duplicate();
  subscriber.on('message', (ch: string, message: string) => {
    if (ch === channel) onRevoked(message);
  });
  await subscriber.subscribe(channel);
  return {
    async publish(consumerKey) {
      onRevoked(consumerKey);
      await redis.publish(channel, consumerKey);
    },
    async close() {
      subscriber.disconnect();
    },
  };
}
