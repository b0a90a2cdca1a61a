/**
 * BUREAU_PROVIDER=circulo through the partner API: a lead is built, its PIN sent and confirmed, and
 * a fake Círculo de Crédito on a loopback port checks the signed request and answers each scenario.
 * Every outcome is read back as a client sees it: the confirmation's status and ErrorResponse, the
 * lead's status and pre-qualification.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeCirculoKeys, type CirculoKeys } from '../../test/circulo-keys.ts';
import { startFakeCirculo, type FakeCirculo, type Scenario } from '../../test/circulo/fake-circulo.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { assertError, assertNoContent, leadDefaults, pinApi, pinFrom, readyLead, sandboxBirthDate, sandboxRfc } from '../../test/lead-fixture.ts';

const credentials = { apiKey: 'cdc-api-key-test', username: 'autofin-user', password: 'autofin-pass' };
const timeoutMs = 1_500;

async function circuloApp(keys: CirculoKeys, fake: FakeCirculo, extra: Record<string, string> = {}, circuit = { failureThreshold: 1_000 }) {
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
async function leadWithPin(t: TestApp, downPayment = 100_000) {
  const pins = pinApi(t);
  const id = await readyLead(t, { rfc: sandboxRfc.A1, downPayment });
  assertNoContent(await pins.send(id, 'SMS'));
  return { id, pin: pinFrom(t.outbox.sms.at(-1)!) };
}

const codes = (lead: { prequalification: { reasons: { code: string }[] } }) => lead.prequalification.reasons.map((r) => r.code);

describe('Círculo de Crédito in production mode', () => {
  let keys: CirculoKeys;
  let fake: FakeCirculo;
  let t: TestApp;
  before(async () => {
    keys = makeCirculoKeys();
    fake = await startFakeCirculo({ ...credentials, lenderPublicKey: keys.lenderPublicKey, circuloPrivateKey: keys.circuloPrivateKey, basePath: '/sandbox' });
    t = await circuloApp(keys, fake);
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });

  /** Confirms a fresh lead's PIN while the fake answers `scenario`; returns the answer and the lead. */
  async function confirmWith(scenario: Scenario, downPayment?: number) {
    fake.answer(scenario);
    const { id, pin } = await leadWithPin(t, downPayment);
    const before = fake.received.length;
    const res = await pinApi(t).confirm(id, pin);
    assert.equal(fake.received.length, before + 1, 'one query to Círculo');
    assert.equal(fake.received.at(-1)!.refused, null, `the fake refused the request: ${fake.received.at(-1)!.refused}`);
    return { id, pin, res, lead: await pinApi(t).read(id) };
  }

  test('an excellent history: the signed request carries the lead folded to Círculo\'s fields; PREQUALIFIED; the raw answer kept encrypted', async () => {
    const { id, res, lead } = await confirmWith('excellent');
    assertNoContent(res);
    assert.equal(lead.status, 'PREQUALIFIED');
    assert.equal(lead.prequalification.decision, 'PREQUALIFIED');
    assert.equal(lead.prequalification.offer.annualRate, 13.9, 'FICO 762 falls in the best tier');

    const request = fake.received.at(-1)!;
    assert.equal(request.signatureValid, true, 'x-signature verifies with the lender\'s public key');
    assert.match(String(request.headers['x-signature']), /^30[0-9a-f]+$/);
    assert.deepEqual([request.headers['x-api-key'], request.headers.username, request.headers.password], [credentials.apiKey, credentials.username, credentials.password]);
    assert.deepEqual(request.body, {
      primerNombre: 'ANACLETA', segundoNombre: 'MARICRUZ', apellidoPaterno: 'ZUBIZARRETA', apellidoMaterno: 'QUINONES',
      fechaNacimiento: sandboxBirthDate, RFC: sandboxRfc.A1, nacionalidad: 'MX',
      domicilio: {
        direccion: 'AV. ALVARO OBREGON 120 INT 4B', coloniaPoblacion: 'ROMA NORTE', delegacionMunicipio: 'CUAUHTEMOC',
        ciudad: 'CIUDAD DE MEXICO', estado: 'CDMX', CP: leadDefaults.address.zipCode,
      },
    });
    const raw = await t.container.bureau.rawAnswerOf(id);
    assert.equal(JSON.parse(raw!).folioConsulta, '1149562347');
    const { rows } = await t.database.db.query<{ row: string }>('select row_to_json(b)::text as row from bureau_reports b where lead_id = $1', [id]);
    for (const leak of ['1149562347', 'BANCO DEMO', 'FICO', '762']) assert.ok(!rows[0].row.includes(leak), `the stored row shows ${leak}`);
    const logs = t.logs.join('\n');
    assert.ok(logs.includes(id), 'the logs carry the lead id, so the check below is not vacuous');
    for (const secret of [sandboxRfc.A1, 'ANACLETA', 'ZUBIZARRETA', 'QUINONES', 'OBREGON', credentials.apiKey, credentials.password, String(request.headers['x-signature']), 'BANCO DEMO']) {
      assert.ok(!logs.includes(secret), `the logs carry ${secret}`);
    }
  });

  test('a delinquent history is NOT_PREQUALIFIED for its score and its 90 days past due', async () => {
    const { res, lead } = await confirmWith('delinquent');
    assertNoContent(res);
    assert.equal(lead.status, 'NOT_PREQUALIFIED');
    assert.equal(lead.prequalification.decision, 'NOT_PREQUALIFIED');
    assert.deepEqual(codes(lead).filter((c) => c === 'LOW_SCORE' || c === 'RECENT_DELINQUENCY').sort(), ['LOW_SCORE', 'RECENT_DELINQUENCY']);
    assert.match(JSON.stringify(lead.prequalification.reasons), /90 days past due/);
  });

  test('a person not found (404 / 404.1) or a 204 is a no-record report, judged by the thin-file policy, never a 412', async () => {
    for (const scenario of ['not-found', 'no-content'] as const) {
      const enough = await confirmWith(scenario, 120_000);
      assertNoContent(enough.res);
      assert.equal(enough.lead.status, 'PREQUALIFIED', scenario);
      assert.equal(enough.lead.prequalification.offer.annualRate, 21.9, 'the no-record rate');
      const short = await confirmWith(scenario, 80_000);
      assertNoContent(short.res);
      assert.equal(short.lead.status, 'NOT_PREQUALIFIED', scenario);
      assert.equal(await t.container.bureau.hasReport(short.id), true);
    }
  });

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
    const { id, pin } = await leadWithPin(t);
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
