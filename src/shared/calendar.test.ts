import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ageOn, isoDateInMexico, parseIsoDate } from './calendar.ts';

const ageCases = [
  { birthDate: '2000-01-15', on: '2026-01-15', age: 26, why: 'on the birthday' },
  { birthDate: '2000-01-16', on: '2026-01-15', age: 25, why: 'the day before the birthday' },
  { birthDate: '2000-12-31', on: '2026-01-01', age: 25, why: 'across a new year' },
  { birthDate: '2004-02-29', on: '2025-02-28', age: 20, why: 'a leap-day birth on 28 February of a common year' },
  { birthDate: '2004-02-29', on: '2025-03-01', age: 21, why: 'a leap-day birth on 1 March of a common year' },
  { birthDate: '2004-02-29', on: '2028-02-29', age: 24, why: 'a leap-day birth on a leap day' },
  { birthDate: '2026-01-15', on: '2026-01-15', age: 0, why: 'the day of birth' },
] as const;

for (const { birthDate, on, age, why } of ageCases) {
  test(`ageOn counts whole years: ${why}`, () => {
    assert.equal(ageOn(birthDate, on), age);
  });
}

test('ageOn reads an instant as a Mexico City calendar date', () => {
  // 03:00 UTC on the 16th is still the 15th, 21:00, in Mexico City: the birthday has not come yet.
  assert.equal(ageOn('2008-01-16', new Date('2026-01-16T03:00:00Z')), 17);
  assert.equal(ageOn('2008-01-16', new Date('2026-01-16T07:00:00Z')), 18);
});

test('isoDateInMexico gives the local calendar date', () => {
  assert.equal(isoDateInMexico(new Date('2026-01-16T05:59:59Z')), '2026-01-15');
  assert.equal(isoDateInMexico(new Date('2026-01-16T06:00:00Z')), '2026-01-16');
});

test('isoDateInMexico answers each instant, asked in any order, across a day that turns', () => {
  const before = new Date('2026-01-16T05:59:59.999Z');
  const after = new Date('2026-01-16T06:00:00.000Z');
  for (const [instant, day] of [
    [before, '2026-01-15'],
    [before, '2026-01-15'],
    [after, '2026-01-16'],
    [new Date('2026-01-16T06:00:00.500Z'), '2026-01-16'],
    [before, '2026-01-15'],
    [new Date('1910-01-01T12:00:00Z'), '1910-01-01'],
  ] as const) {
    assert.equal(isoDateInMexico(instant), day, instant.toISOString());
  }
  assert.throws(() => isoDateInMexico(new Date(Number.NaN)), RangeError);
});

test('parseIsoDate accepts 29 February 2000 (divisible by 400) and refuses 1900', () => {
  assert.deepEqual(parseIsoDate('2000-02-29'), { year: 2000, month: 2, day: 29 });
  assert.equal(parseIsoDate('1900-02-29'), null);
});
