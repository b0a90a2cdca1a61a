import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkBirthDate } from './birth-date.ts';

// Noon in Mexico City (UTC−6): the calendar date is the same in UTC and in Mexico.
const today = new Date('2026-01-15T18:00:00Z');

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
