/**
 * The RFC (Registro Federal de Contribuyentes) of a persona física: 4 letters from the names,
 * the birth date as YYMMDD, a 2-character homonymy key and the SAT check digit.
 *
 * A wrong check digit is a warning, not a refusal: about 1.5% of RFCs the SAT really issued do not
 * satisfy the published algorithm, and refusing them would lock those people out.
 */
import { makeCalendarDate, parseIsoDate } from '../shared/index.ts';

export const RFC_CHECK_DIGIT_MISMATCH = 'RFC_CHECK_DIGIT_MISMATCH';

/** RFCs the SAT reserves for the general public and foreigners: they identify nobody. */
const GENERIC_RFCS: ReadonlySet<string> = new Set(['XAXX010101000', 'XEXX010101000']);

const personaFisicaPattern = /^([A-ZÑ&]{4})(\d{2})(\d{2})(\d{2})([A-Z0-9]{2})([0-9A])$/;

/** Value of each character in the check-digit sum is its index here (SAT, Anexo 3). */
const CHECK_DIGIT_TABLE = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';

export type RfcCheck = { ok: true; normalized: string; warnings: string[] } | { ok: false; errorDetail: string };

/**
 * SAT check digit of the first 12 characters: Σ value(c_i) × (13 − i) for i = 0..11, then
 * 11 − (sum mod 11), where 11 is written 0 and 10 is written A.
 */
export function rfcCheckDigit(first12: string): string {
  if (first12.length !== 12) throw new RangeError('rfcCheckDigit needs exactly 12 characters');
  let sum = 0;
  for (let i = 0; i < 12; i++) {
    const value = CHECK_DIGIT_TABLE.indexOf(first12[i]);
    if (value < 0) throw new RangeError(`character not allowed in an RFC: ${first12[i]}`);
    sum += value * (13 - i);
  }
  const digit = 11 - (sum % 11);
  if (digit === 11) return '0';
  if (digit === 10) return 'A';
  return String(digit);
}

/** Trim, compose accents (an Ñ typed as N + combining tilde is the same letter) and upper-case. */
export function normalizeRfc(rfc: string): string {
  return rfc.trim().normalize('NFC').toUpperCase();
}

/**
 * Checks an RFC against the person's birth date (YYYY-MM-DD). The RFC only carries two digits of
 * the year, so the century comes from the birth date.
 */
export function checkRfc(rfc: string, birthDate: string): RfcCheck {
  const normalized = normalizeRfc(rfc);
  if (GENERIC_RFCS.has(normalized)) {
    return { ok: false, errorDetail: 'a generic RFC does not identify a person' };
  }
  const match = personaFisicaPattern.exec(normalized);
  if (!match) {
    return {
      ok: false,
      errorDetail: 'must be a persona física RFC: 4 letters, the birth date as YYMMDD and a 3-character homoclave',
    };
  }
  const [, , yy, mm, dd] = match;
  const [year, month, day] = [Number(yy), Number(mm), Number(dd)];
  // 000229 is real (2000) although 1900-02-29 is not: a date is impossible only if no century fits.
  if (!makeCalendarDate(2000 + year, month, day) && !makeCalendarDate(1900 + year, month, day)) {
    return { ok: false, errorDetail: `the date in the RFC (${yy}${mm}${dd}) is not a real date` };
  }
  const birth = parseIsoDate(birthDate);
  if (!birth) {
    return { ok: false, errorDetail: 'cannot be checked: birthDate is not a valid YYYY-MM-DD date' };
  }
  const century = birth.year - (birth.year % 100);
  if (century + year !== birth.year || month !== birth.month || day !== birth.day) {
    return { ok: false, errorDetail: `the date in the RFC (${yy}${mm}${dd}) must equal birthDate` };
  }
  const warnings = rfcCheckDigit(normalized.slice(0, 12)) === normalized[12] ? [] : [RFC_CHECK_DIGIT_MISMATCH];
  return { ok: true, normalized, warnings };
}
