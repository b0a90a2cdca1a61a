/**
 * The client address behind proxies: TRUST_PROXY as Fastify's `trustProxy` option. A hop count
 * is given as a function, proxy-addr's hop logic (the socket's peer is hop 0, the rightmost
 * X-Forwarded-For entry hop 1, ...): the client is the address `hops` entries from the right, and
 * whatever a client wrote further left is never read. Fastify itself would ignore a bare number.
 */
import type { Config } from '../config/index.ts';

export type TrustProxyOption = false | string[] | ((address: string, hop: number) => boolean);

export function trustProxyOption(setting: Config['trustProxy']): TrustProxyOption {
  if (typeof setting !== 'number') return setting;
  if (setting === 0) return false;
  return (_address, hop) => hop < setting;
}
