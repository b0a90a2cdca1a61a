/**
 * Which endpoint URLs may be called (docs/webhooks.md, "Security"). In production only `https`, and
 * only a globally routable unicast address: an allow-list, not a list of what to refuse. An address
 * in any of IANA's special-purpose ranges (loopback, private, link-local, carrier-grade NAT,
 * documentation, discard, 6to4, Teredo, site-local, multicast, reserved…) is refused, and an IPv4
 * address carried inside an IPv6 one (`::ffff:a.b.c.d`, NAT64's `64:ff9b::a.b.c.d`) is judged as that
 * IPv4 address. Elsewhere (the sandbox) `http` and loopback are allowed so partners can test on their
 * own machine, but never on the ports of the service itself or of the servers it uses (its database,
 * Redis): a delivery must not be a way to reach them. A port must be 1–65535. Checked when an endpoint is
 * saved and again, on the address actually connected to, at every send (a hostname may resolve
 * differently later).
 */
import { isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Every address a hostname resolves to. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** IANA's global unicast space for IPv6 (2000::/3): anything outside it is not a public host. */
const globalUnicastV6 = ipaddr.parseCIDR('2000::/3');
/** The well-known NAT64 prefix (RFC 6052), globally reachable when the IPv4 address it carries is. */
const nat64 = ipaddr.parseCIDR('64:ff9b::/96');

type Verdict = 'global' | 'loopback' | 'internal';

/** How far an address reaches: a public host, this machine, or anything else. */
export function addressReach(address: string): Verdict {
  if (!ipaddr.isValid(address)) return 'internal';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return reachOfV4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return reachOfV4(v6.toIPv4Address());
  if (v6.range() === 'loopback') return 'loopback';
  if (v6.match(nat64)) return reachOfV4(ipaddr.fromByteArray(v6.toByteArray().slice(12)) as ipaddr.IPv4);
  return v6.match(globalUnicastV6) && v6.range() === 'unicast' ? 'global' : 'internal';
}

function reachOfV4(v4: ipaddr.IPv4): Verdict {
  const range = v4.range();
  if (range === 'loopback') return 'loopback';
  return range === 'unicast' ? 'global' : 'internal';
}

export interface UrlPolicy {
  /** Why the URL is refused, or undefined when it may be saved. */
  refusal(url: string): Promise<string | undefined>;
  /** Why this resolved address may not be connected to on `port`, or undefined. */
  addressRefusal(address: string, port: number): string | undefined;
  resolve: Resolver;
}

/** The port a URL connects to: its own, or its scheme's. */
export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

export interface UrlPolicyOptions {
  production: boolean;
  resolve?: Resolver;
  /** The loopback ports never delivered to: the service's own, its database's, Redis's. */
  reservedLoopbackPorts?: readonly number[];
}

export function createUrlPolicy(options: UrlPolicyOptions): UrlPolicy {
  const resolve = options.resolve ?? systemResolver;
  const reserved = new Set(options.reservedLoopbackPorts ?? []);

  function addressRefusal(address: string, port: number): string | undefined {
    const reach = addressReach(address);
    if (reach === 'loopback') {
      if (options.production) return 'must not point to a loopback address';
      return reserved.has(port) ? 'must not point to a port of this service or of a server it uses' : undefined;
    }
    if (reach === 'internal')
      return (
        'must point to a public address, not a private, link-local, ' +
        'metadata, reserved or other special-purpose one'
      );
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
      if (url.port === '0') return 'must use a port from 1 to 65535';
      const port = portOf(url);
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(host)) return addressRefusal(host, port);
      let addresses: { address: string }[];
      try {
        addresses = await resolve(host);
      } catch {
        return 'must have a hostname that resolves';
      }
      if (addresses.length === 0) return 'must have a hostname that resolves';
      for (const { address } of addresses) {
        const refused = addressRefusal(address, port);
        if (refused) return refused;
      }
      return undefined;
    },
  };
}
