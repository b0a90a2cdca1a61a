import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dayRefusal, mexicoCityDayEnd } from './console-days.ts';

test('a typed day is refused unless it exists', () => {
  for (const day of ['2026-02-28', '2024-02-29', '0001-01-01', '9999-12-31'])
    assert.equal(dayRefusal(day, 'Desde'), undefined);
  for (const day of ['2026-02-29', '2026-02-30', '2026-13-01', '2026-12-32', '0000-01-01', '2026-1-1', 'ayer']) {
    assert.match(dayRefusal(day, 'Hasta') ?? '', /^La fecha «Hasta» no existe/, day);
  }
});

test('a day of Mexico City ends at the next day’s start; 9999-12-31 has no end to name', () => {
  const cases: [string, string | undefined][] = [
    ['2026-02-28', '2026-03-01T00:00:00-06:00'],
    ['2024-02-28', '2024-02-29T00:00:00-06:00'],
    ['2026-12-31', '2027-01-01T00:00:00-06:00'],
    ['0099-12-31', '0100-01-01T00:00:00-06:00'],
    ['9999-12-30', '9999-12-31T00:00:00-06:00'],
    ['9999-12-31', undefined],
  ];
  for (const [day, end] of cases) assert.equal(mexicoCityDayEnd(day), end, day);
});
