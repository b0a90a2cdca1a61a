/**
 * BUREAU_PROVIDER=circulo through the partner API: a lead is built, its PIN sent and confirmed, and
 * a fake Círculo de Crédito on a loopback port checks the signed request and answers each scenario.
 * Every outcome is read back as a client sees it: the confirmation's status and ErrorResponse, the
 * lead's status and pre-qualification. Failures are in circulo-failures.routes.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { credentials, startCirculoSetup, type CirculoSetup } from '../../test/circulo/circulo-app.ts';
import type { FakeCirculo, Scenario } from '../../test/circulo/fake-circulo.ts';
import type { TestApp } from '../../test/helper.ts';
import { assertNoContent, leadDefaults, sandboxBirthDate, sandboxRfc } from '../../test/lead-fixture.ts';

const codes = (lead: { prequalification: { reasons: { code: string }[] } }) =>
  lead.prequalification.reasons.map((r) => r.code);

let setup: CirculoSetup;
let fake: FakeCirculo;
let t: TestApp;

const confirmWith = (scenario: Scenario, downPayment?: number) => setup.confirmWith(scenario, downPayment);

function circuloProductionTests() {
  test(
    'an excellent history: the signed request carries the lead folded ' +
      "to Círculo's fields; PREQUALIFIED; the raw answer kept encrypted",
    async () => {
      const { id, res, lead } = await confirmWith('excellent');
      assertNoContent(res);
      assert.equal(lead.status, 'PREQUALIFIED');
      assert.equal(lead.prequalification.decision, 'PREQUALIFIED');
      assert.equal(lead.prequalification.offer.annualRate, 13.9, 'FICO 762 falls in the best tier');

      const request = fake.received.at(-1)!;
      assert.equal(request.signatureValid, true, "x-signature verifies with the lender's public key");
      assert.match(String(request.headers['x-signature']), /^30[0-9a-f]+$/);
      assert.deepEqual(
        [request.headers['x-api-key'], request.headers.username, request.headers.password],
        [credentials.apiKey, credentials.username, credentials.password],
      );
      assert.deepEqual(request.body, {
        primerNombre: 'ANACLETA',
        segundoNombre: 'MARICRUZ',
        apellidoPaterno: 'ZUBIZARRETA',
        apellidoMaterno: 'QUINONES',
        fechaNacimiento: sandboxBirthDate,
        RFC: sandboxRfc.A1,
        nacionalidad: 'MX',
        domicilio: {
          direccion: 'AV. ALVARO OBREGON 120 INT 4B',
          coloniaPoblacion: 'ROMA NORTE',
          delegacionMunicipio: 'CUAUHTEMOC',
          ciudad: 'CIUDAD DE MEXICO',
          estado: 'CDMX',
          CP: leadDefaults.address.zipCode,
        },
      });
      const raw = await t.container.bureau.rawAnswerOf(id);
      assert.equal(JSON.parse(raw!).folioConsulta, '1149562347');
      const { rows } = await t.database.db.query<{ row: string }>(
        'select row_to_json(b)::text as row from bureau_reports b where lead_id = $1',
        [id],
      );
      // The score after a colon, as JSON writes it: three digits alone turn up by chance in ids and ciphertexts.
      for (const leak of ['1149562347', 'BANCO DEMO', 'FICO', ':762'])
        assert.ok(!rows[0].row.includes(leak), `the stored row shows ${leak}`);
      const logs = t.logs.join('\n');
      assert.ok(logs.includes(id), 'the logs carry the lead id, so the check below is not vacuous');
      for (const secret of [
        sandboxRfc.A1,
        'ANACLETA',
        'ZUBIZARRETA',
        'QUINONES',
        'OBREGON',
        credentials.apiKey,
        credentials.password,
        String(request.headers['x-signature']),
        'BANCO DEMO',
      ]) {
        assert.ok(!logs.includes(secret), `the logs carry ${secret}`);
      }
    },
  );

  test('a delinquent history is NOT_PREQUALIFIED for its score and its 90 days past due', async () => {
    const { id, res, lead } = await confirmWith('delinquent');
    assertNoContent(res);
    assert.equal(lead.status, 'NOT_PREQUALIFIED');
    assert.equal(lead.prequalification.decision, 'NOT_PREQUALIFIED');
    assert.deepEqual(
      codes(lead)
        .filter((c) => c === 'LOW_SCORE' || c === 'RECENT_DELINQUENCY')
        .sort(),
      ['LOW_SCORE', 'RECENT_DELINQUENCY'],
    );
    // The partner's reasons name the thresholds; the lender reads the 90 days in the bureau summary.
    assert.doesNotMatch(JSON.stringify(lead.prequalification.reasons), /\b90\b/);
    const lender = await t.app.inject({ method: 'GET', url: `/admin/leads/${id}`, headers: t.admin });
    assert.equal(lender.statusCode, 200, lender.body);
    assert.equal((lender.json() as { bureau: { worstDelinquencyDays: number } }).bureau.worstDelinquencyDays, 90);
  });

  test(
    'a person not found (404 / 404.1) or a 204 is a no-record ' + 'report, judged by the thin-file policy, never a 412',
    async () => {
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
    },
  );
}

describe('Círculo de Crédito in production mode', () => {
  before(async () => {
    setup = await startCirculoSetup();
    ({ fake, t } = setup);
  });
  after(() => setup?.close());
  circuloProductionTests();
});
