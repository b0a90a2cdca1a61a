import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { undiciClient } from './undici-client.ts';

test('a warmed client loads undici and makes its pool before its first request, once', async () => {
  let made = 0;
  const pool = { close: async () => {} } as unknown as Dispatcher;
  const client = undiciClient(() => {
    made += 1;
    return pool;
  });
  client.warm();
  for (let waited = 0; made === 0 && waited < 5_000; waited += 10) await sleep(10);
  assert.equal(made, 1, 'the pool was made with no request');
  assert.equal((await client.get()).dispatcher, pool);
  client.warm();
  await client.get();
  assert.equal(made, 1, 'made once');
  await client.close();
});
