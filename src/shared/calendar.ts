/**
 * Calendar dates of the service. Pure: "today" is always passed in, never read from the system clock.
 *
 * Calendar dates are read in Mexico City time: a day (a borrower's birthday, the day they turn 18)
 * starts at local midnight, not at UTC midnight six hours earlier.
 */
import { lazily } from './lazily.ts';

const SERVICE_TIME_ZONE = 'America/Mexico_City';
const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface CalendarDate {
  year: number;
  month: number; // 1–12
  day: number; // 1–31
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A real calendar date or null; month 1–12. */
export function makeCalendarDate(year: number, month: number, day: number): CalendarDate | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** The calendar date of an instant in UTC (any year JavaScript holds, 10000 included). */
export function utcCalendarDate(instant: Date): CalendarDate {
  return { year: instant.getUTCFullYear(), month: instant.getUTCMonth() + 1, day: instant.getUTCDate() };
}

/** Strict `YYYY-MM-DD` that names a real day (no 2023-02-29, no 2024-13-01). */
export function parseIsoDate(value: string): CalendarDate | null {
  const match = isoDatePattern.exec(value);
  if (!match) return null;
  return makeCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

export function formatIsoDate(date: CalendarDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

/** The calendar date an instant falls on in the service's time zone (Mexico City). */
// en-CA formats as YYYY-MM-DD. Built once, on first use: a DateTimeFormat costs far more to build than to
// use, and the first of a process loads ICU's data (lazily.ts).
const mexicoDate = lazily(
  () =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: SERVICE_TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }),
);

/**
 * The last second asked for and its date: the writes of one second ask for the same day, and a
 * format costs several microseconds. Time-zone offsets are whole seconds, so a day never turns
 * within one.
 */
let lastSecond = Number.NaN;
let lastDate = '';

export function isoDateInMexico(instant: Date): string {
  const second = Math.floor(instant.getTime() / 1000);
  if (second !== lastSecond) {
    lastDate = mexicoDate().format(instant);
    lastSecond = second;
  }
  return lastDate;
}

export function toCalendarDate(value: string | Date): CalendarDate {
  const parsed = parseIsoDate(typeof value === 'string' ? value : isoDateInMexico(value));
  if (!parsed) throw new RangeError(`not an ISO calendar date: ${String(value)}`);
  return parsed;
}

export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/**
 * Age in whole years on `date` (an ISO date, or an instant read in Mexico City time). Someone born on
 * 29 February becomes a year older on 1 March in common years.
 */
export function ageOn(birthDate: string, date: string | Date): number {
  const birth = toCalendarDate(birthDate);
  const on = toCalendarDate(date);
  const hadBirthday = on.month > birth.month || (on.month === birth.month && on.day >= birth.day);
  return on.year - birth.year - (hadBirthday ? 0 : 1);
}
