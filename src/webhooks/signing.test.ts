import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { newSecret, signedHeaders } from './signing.ts';

test('a signature made here verifies with the standardwebhooks package, with either of two secrets', () => {
  const [oldSecret, current] = [newSecret(), newSecret()];
  assert.match(current, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const body = JSON.stringify({ type: 'lead.created', timestamp: new Date().toISOString(), data: {} });
  const headers = signedHeaders([current, oldSecret], 'f3b6d7c4-5c1e-4c55-9a55-6f2a3b1c0d9e', new Date(), body);
  assert.equal(headers['webhook-signature'].split(' ').length, 2);
  for (const secret of [current, oldSecret]) {
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
  }
  assert.throws(() => new Webhook(newSecret()).verify(body, headers));
  assert.throws(() => new Webhook(current).verify(`${body} `, headers));
});
