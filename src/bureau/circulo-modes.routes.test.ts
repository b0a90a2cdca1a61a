/**
 * BUREAU_PROVIDER=circulo through the partner API: an open circuit answers 603004 without calling
 * Círculo, and simulation mode sends only the API key and needs no signature.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeCirculoKeys, type CirculoKeys } from '../../test/circulo-keys.ts';
import { credentials, circuloApp, leadWithPin } from '../../test/circulo/circulo-app.ts';
import { startFakeCirculo } from '../../test/circulo/fake-circulo.ts';
import { buildTestApp } from '../../test/helper.ts';
import { assertError, assertNoContent, pinApi } from '../../test/lead-fixture.ts';

describe('Círculo de Crédito: circuit breaker and simulation mode', () => {
  let keys: CirculoKeys;
  before(() => { keys = makeCirculoKeys(); });

  test('after a failure opens the circuit, a confirmation is 412 / 603004 without calling Círculo', async () => {
    const fake = await startFakeCirculo({ ...credentials, lenderPublicKey: keys.lenderPublicKey, circuloPrivateKey: keys.circuloPrivateKey, basePath: '' });
    const t = await circuloApp(keys, fake, {}, { failureThreshold: 1 });
    try {
      fake.answer('server-error');
      const first = await leadWithPin(t);
      assertError(await pinApi(t).confirm(first.id, first.pin), 412, 603003, 'Third-party message error');
      const second = await leadWithPin(t);
      const calls = fake.received.length;
      assertError(await pinApi(t).confirm(second.id, second.pin), 412, 603004, 'Third-party message error');
      assert.equal(fake.received.length, calls, 'an open circuit does not call Círculo');
      assert.equal((await pinApi(t).read(second.id)).status, 'VERIFIED');
    } finally {
      await t.close();
      await fake.close();
    }
  });

  test('simulation sends only the API key, signs nothing and needs no signature', async () => {
    const fake = await startFakeCirculo({ apiKey: credentials.apiKey, lenderPublicKey: null, circuloPrivateKey: keys.circuloPrivateKey, basePath: '/sandbox' });
    const t = await buildTestApp({
      env: { BUREAU_PROVIDER: 'circulo', CIRCULO_MODE: 'simulation', CIRCULO_BASE_URL: fake.baseUrl, CIRCULO_API_KEY: credentials.apiKey },
    });
    try {
      fake.answer('unsigned');
      const { id, pin } = await leadWithPin(t);
      assertNoContent(await pinApi(t).confirm(id, pin));
      assert.equal((await pinApi(t).read(id)).status, 'PREQUALIFIED');
      const request = fake.received.at(-1)!;
      assert.equal(request.refused, null);
      for (const header of ['x-signature', 'username', 'password']) assert.equal(request.headers[header], undefined, header);
    } finally {
      await t.close();
      await fake.close();
    }
  });
});
