import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { loadConfig } from '../config/index.ts';
import { trustProxyOption } from './trust-proxy.ts';

/**
 * Each TRUST_PROXY form, as the app is given it, on the client address a request is counted under
 * (the per-address limit of failed token requests): a client's own X-Forwarded-For entries are never
 * believed, a believed proxy's are. The limit itself is tested in auth/token-throttle.test.ts.
 */
async function clientAddressApp(trustProxy: string | undefined) {
  const config = loadConfig(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy });
  const app = Fastify({ trustProxy: trustProxyOption(config.trustProxy) as true });
  app.get('/ip', async (request) => ({ ip: request.ip }));
  await app.ready();
  return async (socketAddress: string, forwardedFor?: string) => {
    const res = await app.inject({
      url: '/ip',
      remoteAddress: socketAddress,
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    });
    return (res.json() as { ip: string }).ip;
  };
}

const balancer = '10.9.0.1';
const client = '203.0.113.5';
const spoof = '192.0.2.66';

/** [socket address, X-Forwarded-For as received, the address the request must count under]. */
type Case = [string, string | undefined, string, string];

const forms: [string | undefined, string, Case[]][] = [
  [
    undefined,
    'unset: only the socket address',
    [
      [client, undefined, client, 'a direct client'],
      [client, spoof, client, 'a direct client writing X-Forwarded-For'],
      [balancer, `${spoof}, ${client}`, balancer, 'behind a balancer every client is the balancer'],
    ],
  ],
  [
    '1',
    'one balancer in front',
    [
      [balancer, client, client, 'the entry the balancer appended'],
      [balancer, `${spoof}, ${client}`, client, 'a spoofed entry before the real one is ignored'],
      [balancer, `${spoof}, 192.0.2.67, ${client}`, client, 'several spoofed entries are ignored'],
      [balancer, undefined, balancer, 'no header: the balancer itself (a health check)'],
    ],
  ],
  [
    '2',
    'a CDN, then a balancer',
    [
      [balancer, `${client}, 10.8.0.3`, client, 'the entry the CDN appended'],
      [balancer, `${spoof}, ${client}, 10.8.0.3`, client, 'a spoofed entry before the real one is ignored'],
    ],
  ],
  [
    balancer,
    "the balancer's address",
    [
      [balancer, client, client, 'the entry the balancer appended'],
      [balancer, `${spoof}, ${client}`, client, 'a spoofed entry before the real one is ignored'],
      [client, spoof, client, 'a client reaching the service directly is its socket address, whatever it writes'],
    ],
  ],
  [
    '10.9.0.0/16, 10.8.0.3',
    'a CIDR range of balancers and a CDN address',
    [
      [`10.9.7.1`, `${spoof}, ${client}, 10.8.0.3`, client, 'both proxies believed, the client before them'],
      [`10.9.7.1`, `${spoof}, ${client}`, client, 'the balancer alone'],
      [client, `${spoof}, 10.8.0.3`, client, 'a direct client naming a trusted proxy is not believed'],
    ],
  ],
  [
    'loopback',
    'a sidecar on the same host',
    [
      ['127.0.0.1', `${spoof}, ${client}`, client, 'the entry the sidecar appended'],
      ['::1', client, client, 'over IPv6 loopback'],
    ],
  ],
];

for (const [raw, title, cases] of forms) {
  describe(`TRUST_PROXY ${raw ?? 'unset'} (${title})`, () => {
    let addressOf: Awaited<ReturnType<typeof clientAddressApp>>;
    before(async () => {
      addressOf = await clientAddressApp(raw);
    });
    for (const [socket, forwarded, expected, what] of cases) {
      test(`${what}: from ${socket} with X-Forwarded-For "${forwarded ?? ''}" counts as ${expected}`, async () => {
        assert.equal(await addressOf(socket, forwarded), expected);
      });
    }
  });
}

describe('trustProxyOption', () => {
  test('a hop count believes exactly that many hops, counting the socket peer as hop 0', () => {
    const trust = trustProxyOption(2) as (address: string, hop: number) => boolean;
    assert.deepEqual(
      [0, 1, 2, 3].map((hop) => trust('10.0.0.1', hop)),
      [true, true, false, false],
    );
  });

  test('false and address lists are given to Fastify as they are', () => {
    assert.equal(trustProxyOption(false), false);
    assert.deepEqual(trustProxyOption(['10.0.0.0/8']), ['10.0.0.0/8']);
  });
});
