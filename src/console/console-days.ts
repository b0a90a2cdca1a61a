/**
 * The days typed in the console's filters ("Desde", "Hasta"): `YYYY-MM-DD` of a day that exists, read as a
 * day of Mexico City, which keeps UTC-6 all year (no daylight saving time since 2022): a day there starts
 * at 06:00 UTC. "Hasta" includes its whole day.
 */
import { formatIsoDate, parseIsoDate, utcCalendarDate } from '../shared/index.ts';

/** Why a typed day is refused, in the console's words; undefined when it is a day that exists. */
export function dayRefusal(day: string, label: string): string | undefined {
  if ((parseIsoDate(day)?.year ?? 0) >= 1) return undefined;
  return `La fecha «${label}» no existe: ${day}. Escríbela como AAAA-MM-DD, por ejemplo 2026-01-31.`;
}

/** Why a filter's "Desde" or "Hasta" is refused (the first that is), or undefined. */
export function dayRefusals(filter: { from?: string; to?: string }): string | undefined {
  return (
    (filter.from !== undefined ? dayRefusal(filter.from, 'Desde') : undefined) ??
    (filter.to !== undefined ? dayRefusal(filter.to, 'Hasta') : undefined)
  );
}

/** The first instant of a day in Mexico City, as the API's date filters read it. */
export const mexicoCityDayStart = (day: string) => `${day}T00:00:00-06:00`;

/**
 * The instant a day of Mexico City ends (the next day's start), as an exclusive `createdTo`; undefined for
 * 9999-12-31, the last day a filter can name: nothing is created after it.
 */
export function mexicoCityDayEnd(day: string): string | undefined {
  const [year, month, date] = day.split('-').map(Number);
  // setUTCFullYear takes the years 1–99 as they are (Date.UTC would read them as 1901–1999).
  const next = new Date(0);
  next.setUTCFullYear(year!, month! - 1, date! + 1);
  if (next.getUTCFullYear() > 9999) return undefined;
  return mexicoCityDayStart(formatIsoDate(utcCalendarDate(next)));
}
