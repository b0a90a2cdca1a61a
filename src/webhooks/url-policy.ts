/**
 * Which endpoint URLs may be called (docs/webhooks.md, "Security"). In production only `https`, and
 * never an address that is loopback, private, link-local, carrier-grade NAT, multicast or a cloud
 * metadata service; elsewhere (the sandbox) `http` and loopback are allowed so partners can test
 * on their own machine. Checked when an endpoint is saved and again, on the address actually
 * connected to, at every send (a hostname may resolve differently later).
 */
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';

/** Every address a hostname resolves to. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const forbidden = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) forbidden.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) forbidden.addSubnet(net, bits, 'ipv6');

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address. */
function normalize(address: string): { address: string; type: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1], type: 'ipv4' };
  return { address, type: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export interface UrlPolicy {
  /** Why the URL is refused, or undefined when it may be saved. */
  refusal(url: string): Promise<string | undefined>;
  /** Why this resolved address may not be connected to, or undefined. */
  addressRefusal(address: string): string | undefined;
  resolve: Resolver;
}

export function createUrlPolicy(options: { production: boolean; resolve?: Resolver }): UrlPolicy {
  const resolve = options.resolve ?? systemResolver;

  function addressRefusal(raw: string): string | undefined {
    const { address, type } = normalize(raw);
    if (loopback.check(address, type)) return options.production ? 'must not point to a loopback address' : undefined;
    if (forbidden.check(address, type)) return 'must not point to a private, link-local or metadata address';
    return undefined;
  }

  return {
    resolve,
    addressRefusal,
    async refusal(raw) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return 'must be an absolute URL';
      }
      const schemes = options.production ? ['https:'] : ['https:', 'http:'];
      if (!schemes.includes(url.protocol)) return options.production ? 'must use https' : 'must use http or https';
      if (url.username || url.password) return 'must not carry credentials';
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(host)) return addressRefusal(host);
      let addresses: { address: string }[];
      try {
        addresses = await resolve(host);
      } catch {
        return 'must have a hostname that resolves';
      }
      if (addresses.length === 0) return 'must have a hostname that resolves';
      for (const { address } of addresses) {
        const refused = addressRefusal(address);
        if (refused) return refused;
      }
      return undefined;
    },
  };
}
