/** A test app with BUREAU_PROVIDER=circulo pointed at a fake Círculo, and a lead with its PIN sent. */
import type { CirculoKeys } from '../circulo-keys.ts';
import { buildTestApp, type TestApp } from '../helper.ts';
import { assertNoContent, pinApi, pinFrom, readyLead, sandboxRfc } from '../lead-fixture.ts';
import type { FakeCirculo } from './fake-circulo.ts';

export const credentials = { apiKey: 'cdc-api-key-test', username: 'autofin-user', password: 'autofin-pass' };
export const timeoutMs = 1_500;

export async function circuloApp(
  keys: CirculoKeys,
  fake: FakeCirculo,
  extra: Record<string, string> = {},
  circuit = { failureThreshold: 1_000 },
) {
  return buildTestApp({
    circuit,
    env: {
      BUREAU_PROVIDER: 'circulo', CIRCULO_BASE_URL: fake.baseUrl, CIRCULO_API_KEY: credentials.apiKey,
      CIRCULO_USERNAME: credentials.username, CIRCULO_PASSWORD: credentials.password,
      CIRCULO_PRIVATE_KEY_FILE: keys.lenderKeyFile, CIRCULO_CERTIFICATE_FILE: keys.circuloCertificateFile,
      PROVIDER_TIMEOUT_MS: String(timeoutMs), ...extra,
    },
  });
}

/** A ready lead with its PIN sent; returns the id and the PIN. */
export async function leadWithPin(t: TestApp, downPayment = 100_000) {
  const pins = pinApi(t);
  const id = await readyLead(t, { rfc: sandboxRfc.A1, downPayment });
  assertNoContent(await pins.send(id, 'SMS'));
  return { id, pin: pinFrom(t.outbox.sms.at(-1)!) };
}

