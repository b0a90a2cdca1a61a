import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressReach, createUrlPolicy, type Resolver } from './url-policy.ts';

const resolver: Resolver = async (host) => {
  const table: Record<string, string> = {
    'evil.example': '127.0.0.1',
    'inside.example': '10.1.2.3',
    'hooks.example': '93.184.216.34',
    'mapped.example': '::ffff:169.254.169.254',
  };
  if (!table[host]) throw new Error('ENOTFOUND');
  return [{ address: table[host], family: table[host].includes(':') ? 6 : 4 }];
};

test(
  'production refuses http, loopback, private, link-local ' + 'and metadata addresses, also behind a hostname',
  async () => {
    const policy = createUrlPolicy({ production: true, resolve: resolver });
    const cases: [string, RegExp | undefined][] = [
      ['https://hooks.example/in', undefined],
      ['http://hooks.example/in', /https/],
      ['https://127.0.0.1/in', /loopback/],
      ['https://[::1]/in', /loopback/],
      ['https://10.0.0.5/in', /private/],
      ['https://172.20.1.1/in', /private/],
      ['https://192.168.1.1/in', /private/],
      ['https://169.254.169.254/latest/meta-data', /metadata/],
      ['https://[::ffff:10.0.0.1]/in', /private/],
      ['https://evil.example/in', /loopback/],
      ['https://inside.example/in', /private/],
      ['https://mapped.example/in', /metadata/],
      ['https://unknown.example/in', /resolves/],
      ['https://user:pw@hooks.example/in', /credentials/],
      ['ftp://hooks.example/in', /https/],
      ['not a url', /absolute/],
    ];
    for (const [url, expected] of cases) {
      const refusal = await policy.refusal(url);
      if (expected) assert.match(refusal ?? 'accepted', expected, url);
      else assert.equal(refusal, undefined, url);
    }
  },
);

test('the sandbox allows http and loopback but still no private or metadata address', async () => {
  const policy = createUrlPolicy({ production: false, resolve: resolver });
  assert.equal(await policy.refusal('http://127.0.0.1:8080/in'), undefined);
  assert.equal(await policy.refusal('http://evil.example/in'), undefined);
  assert.equal(await policy.refusal('http://[::1]:3000/in'), undefined);
  assert.match((await policy.refusal('http://169.254.169.254/')) ?? '', /metadata/);
  assert.match((await policy.refusal('http://10.0.0.1/')) ?? '', /private/);
});

test('an address is public only when it is global unicast; IPv4 carried in IPv6 is judged as IPv4', () => {
  const cases: [string, ReturnType<typeof addressReach>][] = [
    ['93.184.216.34', 'global'],
    ['8.8.8.8', 'global'],
    ['2606:4700:4700::1111', 'global'],
    ['2a00:1450:4001::200e', 'global'],
    ['::ffff:8.8.8.8', 'global'],
    ['64:ff9b::808:808', 'global'],
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['10.0.0.1', 'internal'],
    ['100.64.0.1', 'internal'],
    ['169.254.169.254', 'internal'],
    ['192.0.2.1', 'internal'],
    ['198.18.0.1', 'internal'],
    ['203.0.113.9', 'internal'],
    ['224.0.0.1', 'internal'],
    ['255.255.255.255', 'internal'],
    ['0.0.0.0', 'internal'],
    ['2002:7f00:1::', 'internal'],
    ['2002:a00:1::', 'internal'],
    ['2002:a9fe:a9fe::', 'internal'],
    ['::7f00:1', 'internal'],
    ['::127.0.0.1', 'loopback'],
    ['::ffff:0:7f00:1', 'internal'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'internal'],
    ['fec0::1', 'internal'],
    ['100::1', 'internal'],
    ['64:ff9b:1::a00:1', 'internal'],
    ['2001:db8::1', 'internal'],
    ['fc00::1', 'internal'],
    ['fe80::1', 'internal'],
    ['ff02::1', 'internal'],
    ['::', 'internal'],
    ['3fff::1', 'internal'],
    ['2001:2::1', 'internal'],
    ['not-an-ip', 'internal'],
  ];
  for (const [address, reach] of cases) assert.equal(addressReach(address), reach, address);
});

test('a port must be 1–65535, in production and in the sandbox', async () => {
  for (const production of [true, false]) {
    const policy = createUrlPolicy({ production, resolve: resolver });
    assert.match((await policy.refusal('https://1.1.1.1:0/')) ?? '', /port from 1 to 65535/);
    assert.match((await policy.refusal('https://hooks.example:0/in')) ?? '', /port from 1 to 65535/);
    assert.equal(await policy.refusal('https://hooks.example:65535/in'), undefined);
  }
});

test('the sandbox never delivers to the ports of the service or of the servers it uses on loopback', async () => {
  const policy = createUrlPolicy({ production: false, resolve: resolver, reservedLoopbackPorts: [3000, 5432, 6379] });
  for (const url of ['http://127.0.0.1:3000/health/live', 'http://[::1]:5432/', 'http://evil.example:6379/x']) {
    assert.match((await policy.refusal(url)) ?? 'accepted', /port of this service or of a server it uses/, url);
  }
  assert.equal(await policy.refusal('http://127.0.0.1:8080/in'), undefined);
  assert.equal(await policy.refusal('http://evil.example/in'), undefined);
  assert.equal(await policy.refusal('http://127.0.0.1:3001/in'), undefined);
  // The same ports elsewhere are someone else's.
  assert.equal(await policy.refusal('http://hooks.example:5432/in'), undefined);
  assert.equal(
    policy.addressRefusal('127.0.0.1', 6379),
    'must not point to a port of this service or of a server it uses',
  );
  assert.equal(policy.addressRefusal('127.0.0.1', 6380), undefined);
});
