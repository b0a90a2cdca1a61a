/**
 * Pre-qualification end to end through the HTTP API: a lead is built, its PIN sent and confirmed,
 * the sandbox bureau answers by the RFC's homoclave, and the result is read back from the lead.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buildTestApp, createManualClock, type TestApp } from '../../test/helper.ts';
import {
  assertNoContent,
  pinApi,
  pinFrom,
  readyLead,
  sandboxRfc,
  type ReadyLeadOptions,
} from '../../test/lead-fixture.ts';

const config = JSON.parse(readFileSync(new URL('../../config/prequalification.json', import.meta.url), 'utf8')) as {
  noRecordPolicy: 'ALLOW_WITH_MIN_DOWN_PAYMENT' | 'REJECT';
  noRecordMinimumDownPaymentShare: number;
  noRecordAnnualRate: number;
  minimumDownPaymentShare: number;
  ivaRate: number;
  openingCommissionShare: number;
};

const sound = {
  price: 340_000,
  downPayment: 100_000,
  term: 48,
  income: 60_000,
  employment: { employmentType: 'Empleado' as const, startDate: { year: 2015, month: 1 } },
};

/** docs/prequalification.md: r = a / 12 × (1 + IVA), P = L r / (1 − (1 + r)^−n). */
const frenchPayment = (amount: number, annualRate: number, term: number, iva: number) => {
  const r = (annualRate / 12) * (1 + iva);
  return (amount * r) / (1 - (1 + r) ** -term);
};

/** The CAT (percent) solving Σ A / (1 + i)^(j/12) = L − C, by bisection. */
function catOf(amount: number, commission: number, paymentWithoutIva: number, term: number): number {
  const npv = (i: number) => {
    let sum = 0;
    for (let j = 1; j <= term; j++) sum += paymentWithoutIva / (1 + i) ** (j / 12);
    return sum - (amount - commission);
  };
  let [low, high] = [0, 5];
  for (let k = 0; k < 200; k++) {
    const mid = (low + high) / 2;
    if (npv(mid) > 0) low = mid;
    else high = mid;
  }
  return low * 100;
}

describe('pre-qualification through the API', () => {
  let t: TestApp;
  let pins: ReturnType<typeof pinApi>;
  const clock = createManualClock();
  before(async () => {
    t = await buildTestApp({ clock });
    pins = pinApi(t);
  });
  after(() => t.close());

  /** A ready lead, its PIN sent by SMS and confirmed (204); returns the lead as read back. */
  async function verified(options: ReadyLeadOptions) {
    const id = await readyLead(t, options);
    assertNoContent(await pins.send(id, 'SMS'));
    assertNoContent(await pins.confirm(id, pinFrom(t.outbox.sms.at(-1)!)));
    return pins.read(id);
  }

  const codes = (lead: { prequalification: { reasons: { code: string }[] } }) =>
    lead.prequalification.reasons.map((r) => r.code);

  test('an A1 applicant with sound numbers is PREQUALIFIED with a consistent offer', async () => {
    const lead = await verified({ rfc: sandboxRfc.A1, ...sound });
    assert.equal(lead.status, 'PREQUALIFIED');
    assert.equal(lead.verification.channel, 'SMS');
    assert.equal(lead.verification.verifiedAt, clock.now().toISOString());
    const { decision, reasons, offer, evaluatedAt } = lead.prequalification;
    assert.equal(decision, 'PREQUALIFIED');
    assert.deepEqual(reasons, []);
    assert.equal(evaluatedAt, clock.now().toISOString());
    assert.deepEqual(Object.keys(offer).sort(), [
      'amountFinanced',
      'annualRate',
      'cat',
      'catDisclosure',
      'monthlyPayment',
      'term',
    ]);
    assert.equal(offer.amountFinanced, 240_000);
    assert.equal(offer.term, 48);
    assert.equal(offer.annualRate, 13.9);
    const payment = frenchPayment(240_000, offer.annualRate / 100, 48, config.ivaRate);
    assert.ok(Math.abs(offer.monthlyPayment - payment) <= 0.01, `${offer.monthlyPayment} vs ${payment}`);
    assert.equal(offer.monthlyPayment, Math.round(offer.monthlyPayment * 100) / 100, 'rounded to centavos');
    const withoutIva = Math.round(frenchPayment(240_000, offer.annualRate / 100, 48, 0) * 100) / 100;
    const cat = catOf(240_000, 240_000 * config.openingCommissionShare, withoutIva, 48);
    assert.ok(Math.abs(offer.cat - cat) <= 0.051, `CAT ${offer.cat} vs ${cat}`);
    assert.ok(offer.cat > offer.annualRate, 'the CAT includes the opening commission');
    const [year, month, day] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' })
      .format(clock.now())
      .split('-')
      .map(Number);
    const spanishMonth = new Intl.DateTimeFormat('es-MX', { month: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2026, month! - 1, 1)),
    );
    assert.equal(
      offer.catDisclosure,
      `CAT promedio ${offer.cat}% sin IVA. Para fines informativos y de comparación. ` +
        `Fecha de cálculo: ${day} de ${spanishMonth} de ${year}.`,
    );
  });

  test('the partner’s lead view writes the CAT disclosure: the offer’s CAT, the day in Mexico City', async (ctx) => {
    const start = clock.now();
    ctx.after(() => clock.set(start));
    const cases: { at: string; options: ReadyLeadOptions; cat: number; disclosure: string }[] = [
      // 05:30 UTC on March 1 is still February 28 in Mexico City (UTC-6, no daylight saving time).
      {
        at: '2026-03-01T05:30:00.000Z',
        options: { ...sound, rfc: sandboxRfc.A1 },
        cat: 16.1,
        disclosure:
          'CAT promedio 16.1% sin IVA. Para fines informativos y de comparación. ' +
          'Fecha de cálculo: 28 de febrero de 2026.',
      },
      // 06:00 UTC is midnight in Mexico City; a B1 applicant’s risk tier gives another CAT.
      {
        at: '2026-03-01T06:00:00.000Z',
        options: { ...sound, rfc: sandboxRfc.B1 },
        cat: 23.2,
        disclosure:
          'CAT promedio 23.2% sin IVA. Para fines informativos y de comparación. ' +
          'Fecha de cálculo: 1 de marzo de 2026.',
      },
      // Another term, another CAT; the day is not zero-padded.
      {
        at: '2026-09-09T18:00:00.000Z',
        options: { ...sound, rfc: sandboxRfc.A1, term: 24 },
        cat: 17.2,
        disclosure:
          'CAT promedio 17.2% sin IVA. Para fines informativos y de comparación. ' +
          'Fecha de cálculo: 9 de septiembre de 2026.',
      },
      // A second before midnight in Mexico City, on the last day of the year.
      {
        at: '2027-01-01T05:59:59.000Z',
        options: { ...sound, rfc: sandboxRfc.B1 },
        cat: 23.2,
        disclosure:
          'CAT promedio 23.2% sin IVA. Para fines informativos y de comparación. ' +
          'Fecha de cálculo: 31 de diciembre de 2026.',
      },
    ];
    for (const { at, options, cat, disclosure } of cases) {
      clock.set(new Date(at));
      // A token issued at this time: the file’s partner token lasts an hour from the file’s start.
      const partner = await t.newPartner();
      const id = await readyLead(t, { ...options, partner });
      const leads = pinApi(t, partner);
      assertNoContent(await leads.send(id, 'SMS'));
      assertNoContent(await leads.confirm(id, pinFrom(t.outbox.sms.at(-1)!)));
      const { status, prequalification } = await leads.read(id);
      assert.equal(status, 'PREQUALIFIED', JSON.stringify(prequalification));
      assert.equal(prequalification.evaluatedAt, at);
      assert.equal(prequalification.offer.cat, cat, `${at}: ${JSON.stringify(prequalification.offer)}`);
      assert.equal(
        prequalification.offer.catDisclosure,
        disclosure,
        `${at}: ${JSON.stringify(prequalification.offer)}`,
      );
    }
  });

  test('a C1 applicant is NOT_PREQUALIFIED with LOW_SCORE and no offer', async () => {
    const lead = await verified({ rfc: sandboxRfc.C1, ...sound });
    assert.equal(lead.status, 'NOT_PREQUALIFIED');
    assert.equal(lead.prequalification.decision, 'NOT_PREQUALIFIED');
    assert.deepEqual(codes(lead), ['LOW_SCORE']);
    assert.equal(lead.prequalification.offer, null);
  });

  test('a D1 applicant is NOT_PREQUALIFIED with RECENT_DELINQUENCY', async () => {
    const lead = await verified({ rfc: sandboxRfc.D1, ...sound });
    assert.equal(lead.status, 'NOT_PREQUALIFIED');
    assert.deepEqual(codes(lead), ['RECENT_DELINQUENCY']);
    assert.equal(lead.prequalification.offer, null);
  });

  test('an N1 applicant (no record) follows the configured thin-file policy', async () => {
    const threshold = sound.price * config.noRecordMinimumDownPaymentShare;
    assert.ok(
      threshold - 10_000 >= sound.price * config.minimumDownPaymentShare,
      'the small down payment passes the general minimum',
    );
    const below = await verified({ ...sound, rfc: sandboxRfc.N1, downPayment: threshold - 10_000 });
    const above = await verified({ ...sound, rfc: sandboxRfc.N1, downPayment: threshold + 10_000 });
    if (config.noRecordPolicy === 'REJECT') {
      for (const lead of [below, above]) {
        assert.equal(lead.status, 'NOT_PREQUALIFIED');
        assert.deepEqual(codes(lead), ['NO_CREDIT_RECORD']);
      }
      return;
    }
    assert.equal(below.status, 'NOT_PREQUALIFIED');
    assert.deepEqual(codes(below), ['LOW_DOWN_PAYMENT']);
    assert.equal(above.status, 'PREQUALIFIED', JSON.stringify(above.prequalification));
    assert.equal(above.prequalification.offer.annualRate, Math.round(config.noRecordAnnualRate * 10_000) / 100);
    assert.equal(above.prequalification.offer.amountFinanced, sound.price - (threshold + 10_000));
  });

  test('changing the down payment after verification re-evaluates the lead, and the status follows', async () => {
    const lead = await verified({ ...sound, rfc: sandboxRfc.A1, downPayment: 20_000 });
    assert.equal(lead.status, 'NOT_PREQUALIFIED');
    assert.deepEqual(codes(lead), ['LOW_DOWN_PAYMENT']);

    assertNoContent(await pins.put(lead.id, 'loan-info', { downPayment: 100_000 }));
    const raised = await pins.read(lead.id);
    assert.equal(raised.status, 'PREQUALIFIED');
    assert.equal(raised.prequalification.decision, 'PREQUALIFIED');
    assert.equal(raised.prequalification.offer.amountFinanced, 240_000);

    assertNoContent(await pins.put(lead.id, 'loan-info', { downPayment: 20_000 }));
    const lowered = await pins.read(lead.id);
    assert.equal(lowered.status, 'NOT_PREQUALIFIED');
    assert.deepEqual(codes(lowered), ['LOW_DOWN_PAYMENT']);
    const evaluations = (await pins.events(lead.id)).items.filter((e) => e.type === 'PREQUALIFICATION_EVALUATED');
    assert.equal(evaluations.length, 3);
  });

  test('a lead verified without financial data is INCOMPLETE and stays VERIFIED until the data arrives', async () => {
    const lead = await verified({ ...sound, rfc: sandboxRfc.A1, financial: false });
    assert.equal(lead.status, 'VERIFIED');
    assert.equal(lead.prequalification.decision, 'INCOMPLETE');
    assert.deepEqual(codes(lead), ['MISSING_DATA']);
    assert.match(lead.prequalification.reasons[0].message, /financial\.employmentType/);
    assert.match(lead.prequalification.reasons[0].message, /financial\.income/);
    assert.equal(lead.prequalification.offer, null);

    const res = await pins.put(lead.id, 'financial', { ...sound.employment, income: sound.income });
    assert.equal(res.statusCode, 200, res.body);
    const complete = await pins.read(lead.id);
    assert.equal(complete.status, 'PREQUALIFIED');
    assert.equal(complete.prequalification.offer.amountFinanced, 240_000);
  });

  test('the bureau report is never returned by the API and is stored only encrypted', async () => {
    const id = await readyLead(t, { ...sound, rfc: sandboxRfc.A1 });
    assertNoContent(await pins.send(id, 'SMS'));
    // The sandbox folio is derived from the RFC and the time of the query (the injected clock).
    const digest = createHash('sha256').update(`${sandboxRfc.A1}|${clock.now().toISOString()}`).digest('hex');
    const folio = `SBX-${digest.slice(0, 12).toUpperCase()}`;
    assertNoContent(await pins.confirm(id, pinFrom(t.outbox.sms.at(-1)!)));

    const lead = JSON.stringify(await pins.read(id));
    const events = JSON.stringify(await pins.events(id));
    for (const [what, text] of [
      ['GET /leads/{id}', lead],
      ['GET /leads/{id}/events', events],
    ]) {
      for (const leak of [folio, 'SBX-', 'folio', 'score', 'accounts', 'inquiries', 'BANCO DEMO', 'recordFound']) {
        assert.ok(!text.includes(leak), `${what} shows ${leak}: ${text}`);
      }
    }

    const { rows } = await t.database.db.query<{ row: string }>(
      'select row_to_json(b)::text as row from bureau_reports b where lead_id = $1',
      [id],
    );
    assert.equal(rows.length, 1, 'the report is stored');
    const dump = rows[0].row;
    // Sealed with the lead's own key (docs/operations.md, "Erasure").
    assert.match(dump, /"report_enc"\s*:\s*"l1\./);
    // The score after a colon, as JSON writes it: three digits alone turn up by chance in the lead's id.
    for (const leak of [folio, 'SBX-', 'score', ':780', 'BANCO DEMO', 'CREDIT_CARD', 'recordFound']) {
      assert.ok(!dump.replace(/"report_enc"\s*:\s*"[^"]*"/, '').includes(leak), `the row shows ${leak}: ${dump}`);
    }
    const sealed = JSON.parse(dump).report_enc as string;
    for (const leak of [folio, 'SBX-', 'score', 'BANCO DEMO', 'CREDIT_CARD', 'recordFound']) {
      assert.ok(!sealed.includes(leak), `the ciphertext shows ${leak}`);
    }
  });
});
