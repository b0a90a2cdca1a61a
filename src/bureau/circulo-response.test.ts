import { test } from 'node:test';
import assert from 'node:assert/strict';
import { delinquentHistory, excellentHistory, personNotFound, badRequest } from '../../test/circulo/examples.ts';
import { isPersonNotFound, parseCirculoReport } from './circulo-response.ts';

const now = new Date('2026-01-15T18:00:00Z');
const at = now.toISOString();
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000).toISOString().slice(0, 10);

test('an excellent history: the FICO score, open and closed accounts, inquiries', () => {
  const report = parseCirculoReport(excellentHistory(now), at);
  assert.deepEqual(report, {
    provider: 'circulo',
    folio: '1149562347',
    queriedAt: at,
    recordFound: true,
    score: 762,
    accounts: [
      {
        type: 'CREDIT_CARD',
        lender: 'BANCO DEMO',
        openedAt: daysAgo(2900),
        creditLimit: 80000,
        balance: 4250,
        monthlyPayment: 850,
        worstDelinquencyDays: 0,
        worstDelinquencyDate: null,
        pastDue: 0,
        paymentHistory: 'VVVVVVVVVVVVVVVVVVVVVVVV',
      },
      // Closed: its montoPagar is no longer owed each month.
      {
        type: 'AV',
        lender: 'FINANCIERA AUTOMOTRIZ DEMO',
        openedAt: daysAgo(2000),
        creditLimit: 210000,
        balance: 0,
        monthlyPayment: 0,
        worstDelinquencyDays: 0,
        worstDelinquencyDate: null,
        pastDue: 0,
        paymentHistory: 'VVVVVVVVVVVVVVVVVVVVVVVV',
      },
    ],
    inquiries: [{ date: daysAgo(90), lender: 'BANCO DEMO' }],
  });
});

test('a delinquent history: peorAtraso missed payments × 30 days, its date, the amount past due', () => {
  const report = parseCirculoReport(delinquentHistory(now), at)!;
  assert.equal(report.score, 588);
  assert.deepEqual(
    report.accounts.map((a) => [
      a.type,
      a.worstDelinquencyDays,
      a.worstDelinquencyDate,
      a.pastDue,
      a.monthlyPayment,
      a.balance,
    ]),
    [
      ['PERSONAL_LOAN', 90, daysAgo(120), 9450, 3150, 38900],
      ['CREDIT_CARD', 30, daysAgo(700), 0, 1200, 14300],
    ],
  );
});

test('a FICO value outside 300–850 (an exclusion code) or no FICO entry is no score', () => {
  const base = excellentHistory(now);
  assert.equal(parseCirculoReport({ ...base, scores: [{ nombreScore: 'FICO', valor: 1 }] }, at)?.score, null);
  assert.equal(parseCirculoReport({ ...base, scores: [{ nombreScore: 'OTRO', valor: 700 }] }, at)?.score, null);
  assert.equal(parseCirculoReport({ ...base, scores: undefined }, at)?.score, null);
});

test('a report that does not read is refused whole', () => {
  const base = excellentHistory(now);
  const [card] = base.creditos;
  for (const body of [
    null,
    [],
    'text',
    { ...base, folioConsulta: undefined },
    { ...base, creditos: {} },
    { ...base, scores: 'FICO' },
    { ...base, creditos: [{ ...card, saldoActual: 'mucho' }] },
    { ...base, creditos: [{ ...card, fechaAperturaCuenta: '31/12/2019' }] },
    { ...base, creditos: [{ ...card, peorAtraso: '1.5' }] },
    { ...base, consultas: [{ fechaConsulta: '2025-02-30' }] },
  ]) {
    assert.equal(parseCirculoReport(body, at), null, JSON.stringify(body)?.slice(0, 120));
  }
});

test('only errores codigo 404.1 means the person was not found', () => {
  assert.equal(isPersonNotFound(personNotFound), true);
  assert.equal(isPersonNotFound(badRequest), false);
  assert.equal(isPersonNotFound({ errores: [{ codigo: '404.2' }] }), false);
  assert.equal(isPersonNotFound(undefined), false);
});
