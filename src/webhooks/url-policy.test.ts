import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createUrlPolicy, type Resolver } from './url-policy.ts';

const resolver: Resolver = async (host) => {
  const table: Record<string, string> = { 'evil.example': '127.0.0.1', 'inside.example': '10.1.2.3', 'hooks.example': '93.184.216.34', 'mapped.example': '::ffff:169.254.169.254' };
  if (!table[host]) throw new Error('ENOTFOUND');
  return [{ address: table[host], family: table[host].includes(':') ? 6 : 4 }];
};

test('production refuses http, loopback, private, link-local and metadata addresses, also behind a hostname', async () => {
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
});

test('the sandbox allows http and loopback but still no private or metadata address', async () => {
  const policy = createUrlPolicy({ production: false, resolve: resolver });
  assert.equal(await policy.refusal('http://127.0.0.1:8080/in'), undefined);
  assert.equal(await policy.refusal('http://evil.example/in'), undefined);
  assert.equal(await policy.refusal('http://[::1]:3000/in'), undefined);
  assert.match((await policy.refusal('http://169.254.169.254/')) ?? '', /metadata/);
  assert.match((await policy.refusal('http://10.0.0.1/')) ?? '', /private/);
});
