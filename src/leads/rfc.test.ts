import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRfc, normalizeRfc, rfcCheckDigit, RFC_CHECK_DIGIT_MISMATCH } from './rfc.ts';

/*
 * Check digits worked by hand (value = index in "0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ",
 * weights 13..2, digit = 11 − sum mod 11; 11 → 0, 10 → A):
 *
 * GODE561231GR (SAT's own example): G16·13 + O25·12 + D13·11 + E14·10 + 5·9 + 6·8 + 1·7 + 2·6 + 3·5 + 1·4
 *   + G16·3 + R28·2 = 208+300+143+140+45+48+7+12+15+4+48+56 = 1026; 1026 mod 11 = 3; 11 − 3 = 8.
 * MAHJ900615AB: 286+120+187+190+81+0+0+36+5+20+30+22 = 977; 977 mod 11 = 9; 11 − 9 = 2.
 * PEÑA850101K2: P26·13 + E14·12 + Ñ37·11 + A10·10 + 8·9 + 5·8 + 0 + 1·6 + 0 + 1·4 + K20·3 + 2·2
 *   = 338+168+407+100+72+40+6+4+60+4 = 1199 = 11 · 109; remainder 0 → 11 → "0".
 * SAND8504127K: 377+120+253+130+72+40+0+24+5+8+21+40 = 1090; 1090 mod 11 = 1; 11 − 1 = 10 → "A".
 */
const checkDigitCases = [
  { first12: 'GODE561231GR', digit: '8' },
  { first12: 'MAHJ900615AB', digit: '2' },
  { first12: 'PEÑA850101K2', digit: '0' },
  { first12: 'SAND8504127K', digit: 'A' },
] as const;

for (const { first12, digit } of checkDigitCases) {
  test(`the check digit of ${first12} is ${digit}`, () => {
    assert.equal(rfcCheckDigit(first12), digit);
  });
}

test('rfcCheckDigit refuses input that is not 12 characters of the RFC alphabet', () => {
  assert.throws(() => rfcCheckDigit('GODE561231G'), RangeError);
  assert.throws(() => rfcCheckDigit('GODE561231G-'), RangeError);
});

const acceptedCases = [
  { name: 'the SAT example', rfc: 'GODE561231GR8', birthDate: '1956-12-31', normalized: 'GODE561231GR8' },
  {
    name: 'lower case with spaces around',
    rfc: '  mahj900615ab2 ',
    birthDate: '1990-06-15',
    normalized: 'MAHJ900615AB2',
  },
  { name: 'an Ñ in the letters', rfc: 'PEÑA850101K20', birthDate: '1985-01-01', normalized: 'PEÑA850101K20' },
  {
    name: 'an Ñ typed as N + combining tilde',
    rfc: 'PEN\u0303A850101K20',
    birthDate: '1985-01-01',
    normalized: 'PEÑA850101K20',
  },
  { name: 'a check digit A', rfc: 'SAND8504127KA', birthDate: '1985-04-12', normalized: 'SAND8504127KA' },
  {
    name: '29 February 2000',
    rfc: `LOAM000229HN${rfcCheckDigit('LOAM000229HN')}`,
    birthDate: '2000-02-29',
    normalized: `LOAM000229HN${rfcCheckDigit('LOAM000229HN')}`,
  },
] as const;

for (const { name, rfc, birthDate, normalized } of acceptedCases) {
  test(`an RFC with ${name} is accepted without warnings`, () => {
    assert.deepEqual(checkRfc(rfc, birthDate), { ok: true, normalized, warnings: [] });
  });
}

test('a wrong check digit is accepted with a warning, not refused', () => {
  assert.deepEqual(checkRfc('GODE561231GR9', '1956-12-31'), {
    ok: true,
    normalized: 'GODE561231GR9',
    warnings: [RFC_CHECK_DIGIT_MISMATCH],
  });
});

const refusedCases = [
  { name: 'too short (persona moral)', rfc: 'GOD561231GR8', birthDate: '1956-12-31', detail: /persona física RFC/ },
  { name: 'too long', rfc: 'GODE561231GR81', birthDate: '1956-12-31', detail: /persona física RFC/ },
  { name: 'a digit among the letters', rfc: 'G0DE561231GR8', birthDate: '1956-12-31', detail: /persona física RFC/ },
  { name: 'a letter in the date', rfc: 'GODE56123XGR8', birthDate: '1956-12-31', detail: /persona física RFC/ },
  {
    name: 'a check character other than 0-9 or A',
    rfc: 'GODE561231GRB',
    birthDate: '1956-12-31',
    detail: /persona física RFC/,
  },
  { name: 'an Ñ in the homoclave', rfc: 'GODE561231ÑR8', birthDate: '1956-12-31', detail: /persona física RFC/ },
  { name: 'inner hyphens', rfc: 'GODE-561231-GR8', birthDate: '1956-12-31', detail: /persona física RFC/ },
  { name: 'the empty string', rfc: '', birthDate: '1956-12-31', detail: /persona física RFC/ },
  { name: 'month 13', rfc: 'GODE561331GR8', birthDate: '1956-12-31', detail: /not a real date/ },
  { name: '30 February', rfc: 'GODE560230GR8', birthDate: '1956-02-29', detail: /not a real date/ },
  { name: '29 February of a common year', rfc: 'GODE570229GR8', birthDate: '1957-03-01', detail: /not a real date/ },
  {
    name: 'a date other than birthDate',
    rfc: 'GODE561231GR8',
    birthDate: '1956-12-30',
    detail: /must equal birthDate/,
  },
  {
    name: 'the right day of another year',
    rfc: 'GODE561231GR8',
    birthDate: '1966-12-31',
    detail: /must equal birthDate/,
  },
  {
    name: '000229 with a birth date in 1900',
    rfc: 'LOAM000229HN9',
    birthDate: '1900-03-01',
    detail: /must equal birthDate/,
  },
  { name: 'an invalid birthDate', rfc: 'GODE561231GR8', birthDate: '31/12/1956', detail: /birthDate is not a valid/ },
  { name: 'the generic national RFC', rfc: 'XAXX010101000', birthDate: '2001-01-01', detail: /generic RFC/ },
  {
    name: 'the generic foreign RFC in lower case',
    rfc: 'xexx010101000',
    birthDate: '2001-01-01',
    detail: /generic RFC/,
  },
] as const;

for (const { name, rfc, birthDate, detail } of refusedCases) {
  test(`an RFC with ${name} is refused`, () => {
    const result = checkRfc(rfc, birthDate);
    assert.equal(result.ok, false, JSON.stringify(result));
    if (!result.ok) assert.match(result.errorDetail, detail);
  });
}

test('normalizeRfc trims, composes and upper-cases', () => {
  assert.equal(normalizeRfc(' pen\u0303a850101k20\n'), 'PEÑA850101K20');
});
