import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dateTime, dayRange, money, parseAmount, plain } from './format.ts';

describe('console formats', () => {
  test('times are shown in Mexico City, in Spanish', () => {
    // 18:30 UTC is 12:30 in Mexico City (UTC-6, no daylight saving time since 2022).
    const shown = dateTime('2026-01-15T18:30:00.000Z');
    assert.match(shown, /15/);
    assert.match(shown, /ene/);
    assert.match(shown, /12:30/);
    assert.equal(dateTime(null), '—');
  });

  test('amounts are pesos, written as in Mexico', () => {
    assert.equal(money(350000), '$350,000.00');
    assert.equal(money(245000.5), '$245,000.50');
    assert.equal(money(0), '$0.00');
    assert.equal(money(null), '—');
  });

  test('facts read in Spanish', () => {
    assert.equal(plain(true), 'Sí');
    assert.equal(plain(null), '—');
    assert.equal(plain(12000), '12,000');
  });
});

describe('console values of any shape', () => {
  test('objects read as "key: value" lists; codes and years keep their digits', async () => {
    const { plain, plainCode } = await import('./format.ts');
    assert.equal(
      plain({ birthDate: '1985-04-12', term: 48, price: 340000 }),
      'birthDate: 1985-04-12, term: 48, price: 340,000',
    );
    assert.equal(plainCode('year', 2024), '2024');
    assert.equal(plain([]), '—');
  });
});

describe('amounts typed in console forms', () => {
  test('are read as the console writes them, and as people type them', () => {
    for (const [typed, value] of [
      ['$250,000.00', 250000],
      ['250,000.00', 250000],
      ['250000', 250000],
      ['250000.5', 250000.5],
      [' $ 1,250,000.75 ', 1250000.75],
      ['$245,000.50', 245000.5],
      ['999', 999],
      ['0.5', 0.5],
    ] as const)
      assert.deepEqual(parseAmount(typed), { value }, typed);
  });

  test('anything else is refused in Spanish', () => {
    for (const typed of ['', 'abc', '-5', '25,00', '2,50,000', '250.000,00', '1.2.3', '$$5', '5$', '1e5', '250000.']) {
      const read = parseAmount(typed);
      assert.ok('error' in read, typed);
      assert.match(read.error, /^Escribe un monto en pesos, por ejemplo \$250,000\.00\.$/, typed);
    }
  });

  test('more than two decimals is refused, saying why', () => {
    assert.deepEqual(parseAmount('250000.505'), { error: 'El monto lleva a lo más dos decimales (centavos).' });
  });
});

describe('windows of days in headings', () => {
  test('a window of days reads in Spanish, the month and year named once when shared', () => {
    assert.equal(dayRange('2026-11-01', '2026-11-28'), 'del 1 al 28 de noviembre de 2026');
    assert.equal(dayRange('2026-10-30', '2026-11-02'), 'del 30 de octubre al 2 de noviembre de 2026');
    assert.equal(dayRange('2025-12-31', '2026-01-01'), 'del 31 de diciembre de 2025 al 1 de enero de 2026');
    assert.equal(dayRange('2026-11-28', '2026-11-28'), 'del 28 de noviembre de 2026');
    assert.equal(dayRange('2026-11-01', undefined), 'desde el 1 de noviembre de 2026');
    assert.equal(dayRange(undefined, '0050-03-09'), 'hasta el 9 de marzo de 50');
    assert.equal(dayRange(undefined, undefined), 'de todo el periodo');
  });
});
