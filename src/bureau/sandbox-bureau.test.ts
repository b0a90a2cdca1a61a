import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createManualClock } from '../shared/clock.ts';
import type { BureauReport, BureauSubject } from './report.ts';
import { createSandboxBureau, monthsAgo, sandboxProfileOf } from './sandbox-bureau.ts';

const NOW = new Date('2026-01-15T12:00:00Z');

function subject(rfc: string): BureauSubject {
  return {
    rfc,
    firstName: 'Ana',
    secondName: 'Luisa',
    lastName: 'Pérez',
    secondLastName: 'Gómez',
    birthDate: '1985-04-12',
    address: {
      street: 'Reforma',
      number: '10',
      interior: null,
      zipCode: '06600',
      neighborhood: 'Juárez',
      municipality: 'Cuauhtémoc',
      state: 'Ciudad de México',
      city: 'Ciudad de México',
      stateId: '09',
    },
  };
}

async function reportFor(rfc: string, now = NOW): Promise<BureauReport> {
  const result = await createSandboxBureau(createManualClock(now)).query(subject(rfc), new AbortController().signal);
  assert.ok(result.ok, JSON.stringify(result));
  assert.equal(result.value.raw, null, 'the sandbox has no answer besides the report');
  return result.value.report;
}

const monthsBetween = (from: string, to: Date) =>
  (to.getUTCFullYear() - Number(from.slice(0, 4))) * 12 + (to.getUTCMonth() + 1 - Number(from.slice(5, 7)));

const profileCases = [
  { rfc: 'SAND850412A16', score: 780, maxWorstDays: 0, totalPayments: 640 },
  { rfc: 'SAND850412B13', score: 650, maxWorstDays: 30, totalPayments: 4_500 },
  { rfc: 'SAND850412C10', score: 520, maxWorstDays: 0, totalPayments: 8_610 },
  { rfc: 'SAND850412D18', score: 640, maxWorstDays: 90, totalPayments: 4_000 },
] as const;

for (const { rfc, score, maxWorstDays, totalPayments } of profileCases) {
  test(`homoclave ${rfc.slice(10, 12)} gives a report with score ${score}`, async () => {
    const report = await reportFor(rfc);
    assert.equal(report.provider, 'sandbox');
    assert.equal(report.recordFound, true);
    assert.equal(report.score, score);
    assert.equal(Math.max(...report.accounts.map((a) => a.worstDelinquencyDays)), maxWorstDays);
    assert.equal(
      report.accounts.reduce((sum, a) => sum + a.monthlyPayment, 0),
      totalPayments,
    );
    assert.equal(report.queriedAt, NOW.toISOString());
  });
}

test('A1 holds no more than small, current balances', async () => {
  const report = await reportFor('SAND850412A16');
  for (const a of report.accounts) {
    assert.ok(a.balance <= a.creditLimit * 0.1, JSON.stringify(a));
    assert.equal(a.worstDelinquencyDate, null);
  }
});

test('B1 has its 30-day delinquency more than three years ago', async () => {
  const late = (await reportFor('SAND850412B13')).accounts.filter((a) => a.worstDelinquencyDays > 0);
  assert.equal(late.length, 1);
  assert.equal(late[0].worstDelinquencyDate, '2022-09-15');
});

test('C1 uses more than 90% of its credit', async () => {
  const { accounts } = await reportFor('SAND850412C10');
  const used = accounts.reduce((s, a) => s + a.balance, 0) / accounts.reduce((s, a) => s + a.creditLimit, 0);
  assert.ok(used > 0.9, `utilisation ${used}`);
});

test('D1 keeps its 90-day delinquency inside the last 12 months whatever the date', async () => {
  for (const now of [NOW, new Date('2031-07-31T23:00:00Z')]) {
    const late = (await reportFor('SAND850412D18', now)).accounts.find((a) => a.worstDelinquencyDays === 90);
    assert.ok(late?.worstDelinquencyDate);
    const age = monthsBetween(late.worstDelinquencyDate, now);
    assert.ok(age >= 0 && age < 12, `delinquency ${age} months old`);
  }
});

test('N1 finds no record: no score, no accounts', async () => {
  const report = await reportFor('SAND850412N10');
  assert.deepEqual(
    { recordFound: report.recordFound, score: report.score, accounts: report.accounts, inquiries: report.inquiries },
    { recordFound: false, score: null, accounts: [], inquiries: [] },
  );
});

const failureCases = [
  { rfc: 'SAND850412E15', kind: 'error' },
  { rfc: 'sand850412t11', kind: 'timeout' },
] as const;

for (const { rfc, kind } of failureCases) {
  test(`homoclave ${rfc.slice(10, 12).toUpperCase()} fails with kind ${kind}, at once`, async () => {
    const started = performance.now();
    const result = await createSandboxBureau(createManualClock(NOW)).query(subject(rfc), new AbortController().signal);
    assert.equal(result.ok, false);
    if (!result.ok) assert.equal(result.kind, kind);
    assert.ok(performance.now() - started < 100);
  });
}

test('an aborted signal gets no report', async () => {
  const controller = new AbortController();
  controller.abort();
  const result = await createSandboxBureau(createManualClock(NOW)).query(subject('SAND850412A16'), controller.signal);
  assert.deepEqual({ ok: result.ok, kind: result.ok ? null : result.kind }, { ok: false, kind: 'timeout' });
});

test('the same RFC at the same time gets the same report and folio', async () => {
  assert.deepEqual(await reportFor('MAHJ900615AB2'), await reportFor('mahj900615ab2 '));
  assert.match((await reportFor('MAHJ900615AB2')).folio, /^SBX-[0-9A-F]{12}$/);
});

test('another query time gets another folio', async () => {
  const later = new Date(NOW.getTime() + 1_000);
  assert.notEqual((await reportFor('SAND850412A16')).folio, (await reportFor('SAND850412A16', later)).folio);
});

test('hashed profiles stay in range and differ between people', async () => {
  const rfcs = ['MAHJ900615AB2', 'GODE561231GR8', 'PEÑA850101K20', 'SAND8504127KA', 'LOAM000229HN9', 'BEAS010203X96'];
  const scores = new Set<number | null>();
  for (const rfc of rfcs) {
    assert.equal(sandboxProfileOf(rfc), null);
    const report = await reportFor(rfc);
    assert.equal(report.recordFound, true);
    assert.ok(report.score !== null && report.score >= 450 && report.score <= 820, String(report.score));
    assert.ok(report.accounts.length <= 4);
    for (const a of report.accounts) {
      assert.ok(a.balance >= 0 && a.balance <= a.creditLimit && a.monthlyPayment >= 0, JSON.stringify(a));
      assert.ok(a.openedAt < NOW.toISOString().slice(0, 10));
    }
    scores.add(report.score);
  }
  assert.ok(scores.size > 1);
});

const monthsAgoCases = [
  { now: '2026-01-15T12:00:00Z', months: 5, expected: '2025-08-15' },
  { now: '2026-03-31T12:00:00Z', months: 1, expected: '2026-02-28' },
  { now: '2024-03-31T12:00:00Z', months: 1, expected: '2024-02-29' },
  { now: '2026-01-15T12:00:00Z', months: 0, expected: '2026-01-15' },
] as const;

for (const { now, months, expected } of monthsAgoCases) {
  test(`${months} months before ${now.slice(0, 10)} is ${expected}`, () => {
    assert.equal(monthsAgo(new Date(now), months), expected);
  });
}
