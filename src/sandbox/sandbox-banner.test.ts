import { test } from 'node:test';
import assert from 'node:assert/strict';
import { printSandboxCredentials } from './sandbox-banner.ts';

test("the first start's banner shows the credentials, a token curl line and where the sandbox guide is", (t) => {
  const written: string[] = [];
  t.mock.method(process.stderr, 'write', (chunk: string) => {
    written.push(chunk);
    return true;
  });
  printSandboxCredentials(
    {
      company: { id: 'c-1', name: 'Demo' },
      affiliate: { user_id: 'u-1' },
      credential: { consumer_key: 'ck_abc', consumer_secret: 'cs_def' },
      operator: { email: 'operador@demo.autofin.test', password: 'pw-0123456789abcdefghij' },
    },
    { host: '127.0.0.1', port: 3000 },
  );
  const banner = written.join('');
  assert.match(banner, /consumer_key:\s+ck_abc/);
  assert.match(banner, /curl -s -X POST http:\/\/127\.0\.0\.1:3000\/auth\/token/);
  assert.match(banner, /docs\/sandbox\.md, served at http:\/\/127\.0\.0\.1:3000\/docs\/sandbox\.md/);
  assert.match(banner, /Operator console: http:\/\/127\.0\.0\.1:3000\/console\n/);
  assert.match(banner, /e-mail:\s+operador@demo\.autofin\.test\n/);
  assert.match(banner, /password:\s+pw-0123456789abcdefghij\n/);
});
