import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createManualClock } from '../shared/clock.ts';
import { chooseBureauProvider } from './bureau.module.ts';

const clock = createManualClock();

test('BUREAU_PROVIDER chooses the adapter; http without its URL fails at start, naming the variable', async () => {
  assert.equal(chooseBureauProvider({ bureauProvider: 'sandbox' }, { clock }).name, 'sandbox');
  const http = chooseBureauProvider({ bureauProvider: 'http', bureauUrl: 'http://127.0.0.1:9' }, { clock });
  assert.equal(http.name, 'http');
  await http.close?.();
  assert.throws(
    () => chooseBureauProvider({ bureauProvider: 'http' }, { clock }),
    /BUREAU_PROVIDER=http needs BUREAU_URL/,
  );
});
