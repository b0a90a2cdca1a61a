import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { createFieldEncryption } from '../shared/index.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { readyLead } from '../../test/lead-fixture.ts';
import { createReportStore, rawAnswerContext, reportContext } from './report-store.ts';
import type { BureauReport } from './report.ts';

let t: TestApp;
describe('the bureau report store', () => {
  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t?.close();
  });

  const report: BureauReport = {
    provider: 'circulo',
    folio: '123456789',
    queriedAt: '2026-01-15T12:00:00.000Z',
    recordFound: true,
    score: 742,
    accounts: [
      {
        type: 'CREDIT_CARD',
        lender: 'BANCO UNO',
        openedAt: '2019-04-01',
        creditLimit: 50000,
        balance: 3000,
        monthlyPayment: 600,
        worstDelinquencyDays: 0,
        worstDelinquencyDate: null,
      },
    ],
    inquiries: [],
  };

  test('a saved answer is stored encrypted per lead and read back; the raw answer too', async (ctx) => {
    const leadId = await readyLead(t);
    const { sealing } = t.container.leadKeys;
    const store = createReportStore(t.database.db, sealing);
    assert.equal(await store.hasReport(leadId), false);
    assert.equal(await store.reportOf(leadId), undefined);
    const raw = '{"folioConsulta":"123456789","scores":[{"nombreScore":"FICO","valor":742}]}';
    await store.save(leadId, { report, raw }, new Date('2026-01-15T12:00:01Z'));
    assert.equal(await store.hasReport(leadId), true);
    assert.deepEqual(await store.reportOf(leadId), report);
    assert.equal(await store.rawAnswerOf(leadId), raw);

    const { rows } = await t.database.db.query<{ row: string }>(
      'select row_to_json(b)::text as row from bureau_reports b where lead_id = $1',
      [leadId],
    );
    // The score as JSON writes it: three digits alone turn up by chance in ids and ciphertexts.
    for (const leak of ['"score":742', '"valor":742', 'BANCO UNO', 'FICO', 'folioConsulta', '123456789'])
      assert.ok(!rows[0].row.includes(leak), `the row shows ${leak}`);
    const sealed = JSON.parse(rows[0].row) as { report_enc: string; raw_enc: string; provider: string };
    assert.equal(sealed.provider, 'circulo');
    // Bound to the lead and the field: the report's ciphertext never decrypts as the raw answer or as another lead's.
    assert.ok(sealed.report_enc.startsWith('l1.'), 'sealed with the lead’s own key');
    assert.throws(() => sealing.open(leadId, sealed.report_enc, rawAnswerContext(leadId)));
    assert.throws(() => sealing.open(leadId, sealed.raw_enc, reportContext(randomUUID())));
    assert.throws(
      () => createFieldEncryption(randomBytes(32)).decrypt(sealed.report_enc, reportContext(leadId)),
      'not with a data key',
    );

    await ctx.test('a later answer replaces it; a sandbox answer has no raw answer', async () => {
      await store.save(leadId, { report: { ...report, provider: 'sandbox', score: 650 }, raw: null }, new Date());
      assert.equal((await store.reportOf(leadId))?.score, 650);
      assert.equal(await store.rawAnswerOf(leadId), null);
    });
  });
});
