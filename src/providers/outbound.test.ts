import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createManualClock } from '../shared/clock.ts';
import { classifyThrown, createOutbound } from './outbound.ts';
import type { ProviderResult } from './ports.ts';

const ok = async (): Promise<ProviderResult<string>> => ({ ok: true, value: 'sent' });
const failing = (kind: 'timeout' | 'error' | 'rejected') => async (): Promise<ProviderResult<string>> => ({
  ok: false,
  kind,
});

test('a successful call returns its value and keeps the circuit closed', async () => {
  const outbound = createOutbound({ timeoutMs: 200 });
  assert.deepEqual(await outbound.call('sms', ok), { ok: true, value: 'sent' });
  assert.equal(outbound.state('sms'), 'closed');
});

test('a call that ignores the signal still answers timeout within the limit', async () => {
  const outbound = createOutbound({ timeoutMs: 200 });
  let sawAbort = false;
  const started = performance.now();
  const result = await outbound.call('bureau', (signal) => {
    signal.addEventListener('abort', () => {
      sawAbort = true;
    });
    return new Promise<ProviderResult<string>>((resolve) =>
      setTimeout(() => resolve({ ok: true, value: 'late' }), 1_100),
    );
  });
  const elapsed = performance.now() - started;
  assert.equal(result.ok, false);
  assert.equal(!result.ok && result.kind, 'timeout');
  assert.ok(sawAbort, 'the signal given to fn is aborted at the limit');
  assert.ok(elapsed >= 190 && elapsed < 1_000, `answered after ${elapsed.toFixed(0)} ms`);
});

test('a thrown error becomes kind error, and an unreachable provider kind timeout', async () => {
  const outbound = createOutbound({ timeoutMs: 200 });
  const thrown = await outbound.call('email', async () => {
    throw new Error('boom');
  });
  assert.deepEqual(thrown, { ok: false, kind: 'error', detail: 'Error' });
  const refused = await outbound.call('email', async () => {
    throw Object.assign(new Error('connect'), { code: 'ECONNREFUSED' });
  });
  assert.deepEqual(refused, { ok: false, kind: 'timeout', detail: 'ECONNREFUSED' });
  const syncThrow = await outbound.call('email', () => {
    throw new TypeError('not async');
  });
  assert.deepEqual(syncThrow, { ok: false, kind: 'error', detail: 'TypeError' });
});

test('unreachable errors are recognised through causes and AggregateErrors', () => {
  const dns = new Error('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ENOTFOUND' }) });
  const dualStack = new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })], 'refused');
  assert.equal(classifyThrown(dns), 'timeout');
  assert.equal(classifyThrown(dualStack), 'timeout');
  assert.equal(classifyThrown(Object.assign(new Error('reset'), { code: 'ECONNRESET' })), 'timeout');
  assert.equal(classifyThrown(new SyntaxError('bad json')), 'error');
  assert.equal(classifyThrown(new SyntaxError('bad json'), AbortSignal.abort()), 'timeout');
});

test(
  'the circuit opens after the threshold of consecutive ' + 'failures and then answers at once without calling',
  async () => {
    const outbound = createOutbound({ timeoutMs: 200, failureThreshold: 3, clock: createManualClock() });
    await outbound.call('sms', failing('error'));
    await outbound.call('sms', failing('timeout'));
    assert.equal(outbound.state('sms'), 'closed');
    await outbound.call('sms', failing('error'));
    assert.equal(outbound.state('sms'), 'open');
    let called = false;
    const result = await outbound.call('sms', async () => {
      called = true;
      return { ok: true, value: 'x' };
    });
    assert.deepEqual(result, { ok: false, kind: 'circuit_open' });
    assert.equal(called, false);
    assert.equal(outbound.state('email'), 'closed', 'each provider has its own circuit');
  },
);

test('after openMs one trial goes through; success closes the circuit', async () => {
  const clock = createManualClock();
  const outbound = createOutbound({ timeoutMs: 200, failureThreshold: 2, openMs: 30_000, clock });
  await outbound.call('bureau', failing('error'));
  await outbound.call('bureau', failing('error'));
  clock.advance(29_999);
  assert.equal(outbound.state('bureau'), 'open');
  clock.advance(1);
  assert.equal(outbound.state('bureau'), 'half_open');

  let release!: () => void;
  const trial = outbound.call(
    'bureau',
    () =>
      new Promise<ProviderResult<string>>((resolve) => {
        release = () => resolve({ ok: true, value: 'back' });
      }),
  );
  const concurrent = await outbound.call('bureau', ok);
  assert.deepEqual(concurrent, { ok: false, kind: 'circuit_open' }, 'only one trial at a time');
  release();
  assert.deepEqual(await trial, { ok: true, value: 'back' });
  assert.equal(outbound.state('bureau'), 'closed');
  assert.deepEqual(await outbound.call('bureau', ok), { ok: true, value: 'sent' });
});

test('a failed trial re-opens the circuit for another openMs', async () => {
  const clock = createManualClock();
  const outbound = createOutbound({ timeoutMs: 200, failureThreshold: 1, openMs: 1_000, clock });
  await outbound.call('sms', failing('timeout'));
  clock.advance(1_000);
  assert.equal(outbound.state('sms'), 'half_open');
  await outbound.call('sms', failing('timeout'));
  assert.equal(outbound.state('sms'), 'open');
  clock.advance(999);
  assert.equal(outbound.state('sms'), 'open');
  clock.advance(1);
  assert.equal(outbound.state('sms'), 'half_open');
});

test('rejected answers never open the circuit and break a run of failures', async () => {
  const outbound = createOutbound({ timeoutMs: 200, failureThreshold: 2, clock: createManualClock() });
  for (let i = 0; i < 10; i++) await outbound.call('sms', failing('rejected'));
  assert.equal(outbound.state('sms'), 'closed');
  await outbound.call('sms', failing('error'));
  await outbound.call('sms', failing('rejected'));
  await outbound.call('sms', failing('error'));
  assert.equal(outbound.state('sms'), 'closed', 'the failures were not consecutive');
  await outbound.call('sms', failing('error'));
  assert.equal(outbound.state('sms'), 'open');
});

test('a success resets the count of consecutive failures', async () => {
  const outbound = createOutbound({ timeoutMs: 200, failureThreshold: 2, clock: createManualClock() });
  await outbound.call('email', failing('error'));
  await outbound.call('email', ok);
  await outbound.call('email', failing('error'));
  assert.equal(outbound.state('email'), 'closed');
});
