import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword, passwordMatches } from './password-hash.ts';

test('a password hash is salted scrypt and matches only its password', async () => {
  const stored = await hashPassword('correct horse battery');
  assert.match(stored, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
  assert.ok(!stored.includes('correct horse'));
  assert.notEqual(stored, await hashPassword('correct horse battery'));
  assert.equal(await passwordMatches('correct horse battery', stored), true);
  assert.equal(await passwordMatches('correct horse batterx', stored), false);
  assert.equal(await passwordMatches('anything', 'sha256:abc'), false);
});

test('a hash made at another cost records it and is checked at it', async () => {
  const cheap = await hashPassword('correct horse battery', { N: 2 ** 10, r: 8, p: 1 });
  assert.match(cheap, /^scrypt\$1024\$8\$1\$/);
  assert.equal(await passwordMatches('correct horse battery', cheap), true);
  assert.equal(await passwordMatches('correct horse batterx', cheap), false);
});
