import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ageOn, checkBirthDate, isoDateInMexico, parseIsoDate } from './birth-date.ts';

// Noon in Mexico City (UTC−6): the calendar date is the same in UTC and in Mexico.
const today = new Date('2026-01-15T18:00:00Z');

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

const acceptedCases = [
  { value: '1990-06-15', age: 35, why: 'an ordinary adult' },
  { value: '2008-01-15', age: 18, why: 'someone turning 18 today' },
  { value: '1926-01-15', age: 100, why: 'someone exactly 100' },
] as const;

for (const { value, age, why } of acceptedCases) {
  test(`checkBirthDate accepts ${why}`, () => {
    assert.deepEqual(checkBirthDate(value, today), { ok: true, date: value, age });
  });
}

const refusedCases = [
  { value: '15/06/1990', detail: /YYYY-MM-DD/, why: 'another format' },
  { value: '1990-6-15', detail: /YYYY-MM-DD/, why: 'unpadded month' },
  { value: '1990-06-15T00:00:00Z', detail: /YYYY-MM-DD/, why: 'a date-time' },
  { value: '1990-02-30', detail: /real calendar date/, why: '30 February' },
  { value: '1991-02-29', detail: /real calendar date/, why: '29 February of a common year' },
  { value: '1990-13-01', detail: /real calendar date/, why: 'month 13' },
  { value: '', detail: /YYYY-MM-DD/, why: 'the empty string' },
  { value: '2026-01-16', detail: /future/, why: 'tomorrow' },
  { value: '2008-01-16', detail: /at least 18/, why: 'someone turning 18 tomorrow' },
  { value: '2015-05-05', detail: /at least 18/, why: 'a child' },
  { value: '1925-01-15', detail: /not plausible/, why: 'someone of 101' },
] as const;

for (const { value, detail, why } of refusedCases) {
  test(`checkBirthDate refuses ${why}`, () => {
    const result = checkBirthDate(value, today);
    assert.equal(result.ok, false, JSON.stringify(result));
    if (!result.ok) assert.match(result.errorDetail, detail);
  });
}

test('parseIsoDate accepts 29 February 2000 (divisible by 400) and refuses 1900', () => {
  assert.deepEqual(parseIsoDate('2000-02-29'), { year: 2000, month: 2, day: 29 });
  assert.equal(parseIsoDate('1900-02-29'), null);
});
