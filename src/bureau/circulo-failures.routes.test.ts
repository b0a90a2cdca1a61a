/**
 * BUREAU_PROVIDER=circulo failures through the partner API: each ends in the contract's 412 code with
 * the lead left VERIFIED and nothing stored. The open circuit and simulation mode are in
 * circulo-modes.routes.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startCirculoSetup, timeoutMs, type CirculoSetup } from '../../test/circulo/circulo-app.ts';
import type { FakeCirculo, Scenario } from '../../test/circulo/fake-circulo.ts';
import type { TestApp } from '../../test/helper.ts';
import { assertError, assertNoContent, pinApi } from '../../test/lead-fixture.ts';

describe('Círculo de Crédito failures in production mode', () => {
  let setup: CirculoSetup;
  let fake: FakeCirculo;
  let t: TestApp;
  before(async () => {
    setup = await startCirculoSetup();
    ({ fake, t } = setup);
  });
  after(() => setup?.close());

  const confirmWith = (scenario: Scenario, downPayment?: number) => setup.confirmWith(scenario, downPayment);

  const failures: [Scenario, number, string][] = [
    ['bad-request', 603002, 'a 400 is a rejected request'],
    ['server-error', 603003, 'a 500 is a bureau error'],
    ['bad-signature', 603003, 'an answer whose signature does not verify is a bureau error'],
    ['unsigned', 603003, 'a 200 without a signature is a bureau error'],
    ['unreadable', 603003, 'a signed body that is not a report is a bureau error'],
  ];
  for (const [scenario, code, what] of failures) {
    test(`${what}: 412 / ${code}, the lead stays VERIFIED, nothing is stored`, async () => {
      const { id, res, lead } = await confirmWith(scenario);
      assertError(res, 412, code, 'Third-party message error');
      assert.equal(lead.status, 'VERIFIED');
      assert.equal(lead.prequalification, null);
      assert.equal(await t.container.bureau.hasReport(id), false);
    });
  }

  test('a Círculo that never answers is 412 / 603001 within the time limit; the same PIN then succeeds', async () => {
    fake.answer('hang');
    const { id, pin } = await setup.leadWithPin();
    const started = performance.now();
    assertError(await pinApi(t).confirm(id, pin), 412, 603001, 'Third-party message error');
    const elapsed = performance.now() - started;
    assert.ok(elapsed < timeoutMs + 3_000, `answered after ${elapsed.toFixed(0)} ms`);
    assert.equal((await pinApi(t).read(id)).status, 'VERIFIED');
    fake.answer('excellent');
    assertNoContent(await pinApi(t).confirm(id, pin));
    assert.equal((await pinApi(t).read(id)).status, 'PREQUALIFIED');
  });
});
