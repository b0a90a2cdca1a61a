/**
 * Reading a list's date filters (`createdFrom`, `createdTo`) and the instants of cursors: an ISO 8601
 * date (`2026-01-15`, midnight UTC) or an RFC 3339 date-time that names a real day and time, of the years
 * 0001–9999 (any time of 9999-12-31 included). Anything else is a field error, never an instant of
 * another day: `new Date()` alone takes almost anything ("1" is 2001) and rolls impossible days over
 * (February 30 is March 2).
 */
import { makeCalendarDate } from '../shared/index.ts';
import { errors, type FieldError } from './app-error.ts';

const isoDateOrDateTime =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

/** An instant from an ISO 8601 date or date-time of a real day and time of years 1–9999; undefined otherwise. */
export function isoInstant(value: string): Date | undefined {
  const match = isoDateOrDateTime.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  if (year! < 1 || !makeCalendarDate(year!, month!, day!)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const date = new Date(value);
  // The written date is of the years 1–9999; with its offset the instant may reach into the year 10000
  // (9999-12-31T23:00:00-06:00), which both engines store, but not back into the year 0.
  return Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1 ? undefined : date;
}

/** A date filter's instant, or undefined with a field error on `field` when it is no such date. */
export function readDateFilter(value: string | undefined, field: string, fieldErrors: FieldError[]): Date | undefined {
  if (value === undefined) return undefined;
  const date = isoInstant(value);
  if (!date) fieldErrors.push({ field, errorDetail: 'must be an ISO 8601 date or date-time of the years 0001–9999' });
  return date;
}

/** A date filter's instant, or 400 / 40015 on `field`. */
export function parseDateFilter(value: string | undefined, field: string): Date | undefined {
  const fieldErrors: FieldError[] = [];
  const date = readDateFilter(value, field, fieldErrors);
  if (fieldErrors.length > 0) throw errors.invalidInput(fieldErrors);
  return date;
}
