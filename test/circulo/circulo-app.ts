/**
 * The Círculo route tests' setup: fresh keys, a fake Círculo checking them, a test app with
 * BUREAU_PROVIDER=circulo pointed at it, leads with their PIN sent, and a confirmation while the fake
 * answers a chosen scenario.
 */
import assert from 'node:assert/strict';
import { sharedCirculoKeys } from '../circulo-keys.ts';
import { buildTestApp, type TestApp } from '../helper.ts';
import { assertNoContent, pinApi, pinFrom, readyLead, sandboxRfc } from '../lead-fixture.ts';
import { startFakeCirculo, type Scenario } from './fake-circulo.ts';

export const credentials = { apiKey: 'cdc-api-key-test', username: 'autofin-user', password: 'autofin-pass' };
export const timeoutMs = 1_500;

export interface CirculoSetupOptions {
  /** The path prefix of the fake's base URL (`/sandbox` by default). */
  basePath?: string;
  /** Settings over those that point the app at the fake. */
  env?: Record<string, string>;
  circuit?: { failureThreshold: number };
}

export async function startCirculoSetup(options: CirculoSetupOptions = {}) {
  const { basePath = '/sandbox', env = {}, circuit = { failureThreshold: 1_000 } } = options;
  const keys = sharedCirculoKeys();
  const { lenderPublicKey, circuloPrivateKey } = keys;
  const fake = await startFakeCirculo({ ...credentials, lenderPublicKey, circuloPrivateKey, basePath });
  let t: TestApp;
  try {
    t = await buildTestApp({
      circuit,
      env: {
        BUREAU_PROVIDER: 'circulo',
        CIRCULO_BASE_URL: fake.baseUrl,
        CIRCULO_API_KEY: credentials.apiKey,
        CIRCULO_USERNAME: credentials.username,
        CIRCULO_PASSWORD: credentials.password,
        CIRCULO_PRIVATE_KEY_FILE: keys.lenderKeyFile,
        CIRCULO_CERTIFICATE_FILE: keys.circuloCertificateFile,
        PROVIDER_TIMEOUT_MS: String(timeoutMs),
        ...env,
      },
    });
  } catch (error) {
    await fake.close();
    throw error;
  }
  const pins = pinApi(t);
  /** A ready lead with its PIN sent; returns the id and the PIN. */
  const leadWithPin = async (downPayment = 100_000) => {
    const id = await readyLead(t, { rfc: sandboxRfc.A1, downPayment });
    assertNoContent(await pins.send(id, 'SMS'));
    return { id, pin: pinFrom(t.outbox.sms.at(-1)!) };
  };
  return {
    keys,
    fake,
    t,
    leadWithPin,
    /** Confirms a fresh lead's PIN while the fake answers `scenario`; returns the answer and the lead. */
    async confirmWith(scenario: Scenario, downPayment?: number) {
      fake.answer(scenario);
      const { id, pin } = await leadWithPin(downPayment);
      const before = fake.received.length;
      const res = await pins.confirm(id, pin);
      assert.equal(fake.received.length, before + 1, 'one query to Círculo');
      assert.equal(
        fake.received.at(-1)!.refused,
        null,
        `the fake refused the request: ${fake.received.at(-1)!.refused}`,
      );
      return { id, pin, res, lead: await pins.read(id) };
    },
    async close() {
      await t.close();
      await fake.close();
    },
  };
}
export type CirculoSetup = Awaited<ReturnType<typeof startCirculoSetup>>;
