/**
 * BUREAU_PROVIDER=circulo through the partner API: an open circuit answers 603004 without calling
 * Círculo (simulation mode is tested on the adapter, circulo-bureau.test.ts).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startCirculoSetup } from '../../test/circulo/circulo-app.ts';
import { assertError, pinApi } from '../../test/lead-fixture.ts';

describe('Círculo de Crédito: circuit breaker', () => {
  test('after a failure opens the circuit, a confirmation is 412 / 603004 without calling Círculo', async () => {
    const setup = await startCirculoSetup({ basePath: '', circuit: { failureThreshold: 1 } });
    const { fake, t, leadWithPin } = setup;
    try {
      fake.answer('server-error');
      const first = await leadWithPin();
      assertError(await pinApi(t).confirm(first.id, first.pin), 412, 603003, 'Third-party message error');
      const second = await leadWithPin();
      const calls = fake.received.length;
      assertError(await pinApi(t).confirm(second.id, second.pin), 412, 603004, 'Third-party message error');
      assert.equal(fake.received.length, calls, 'an open circuit does not call Círculo');
      assert.equal((await pinApi(t).read(second.id)).status, 'VERIFIED');
    } finally {
      await setup.close();
    }
  });
});
