import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dateTime, money, plain } from './format.ts';

describe('console formats', () => {
  test('times are shown in Mexico City, in Spanish', () => {
    // 18:30 UTC is 12:30 in Mexico City (UTC-6, no daylight saving time since 2022).
    const shown = dateTime('2026-01-15T18:30:00.000Z');
    assert.match(shown, /15/);
    assert.match(shown, /ene/);
    assert.match(shown, /12:30/);
    assert.equal(dateTime(null), '—');
  });

  test('amounts are pesos', () => {
    assert.match(money(350000), /^MXN\s350,000\.00$/);
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
