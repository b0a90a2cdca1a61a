/** Month arithmetic on ISO calendar dates, for the rules that look forward or back in time. */
import { daysInMonth, formatIsoDate, makeCalendarDate, parseIsoDate, type CalendarDate } from '../../shared/index.ts';

function parse(date: string): CalendarDate {
  const parsed = parseIsoDate(date);
  if (!parsed) throw new RangeError(`not an ISO calendar date: ${date}`);
  return parsed;
}

/** `date` moved by whole months; the day is clamped to the month's end (31 Jan + 1 = 28/29 Feb). */
export function addMonths(date: string, months: number): string {
  const { year, month, day } = parse(date);
  const index = year * 12 + (month - 1) + months;
  const newYear = Math.floor(index / 12);
  const newMonth = index - newYear * 12 + 1;
  return formatIsoDate({ year: newYear, month: newMonth, day: Math.min(day, daysInMonth(newYear, newMonth)) });
}

/** Whole months completed from `from` to `to` (negative when `to` is earlier). */
export function completedMonths(from: string, to: string): number {
  const a = parse(from);
  const b = parse(to);
  const months = (b.year - a.year) * 12 + (b.month - a.month);
  if (months > 0 && b.day < a.day) return months - 1;
  if (months < 0 && b.day > a.day) return months + 1;
  return months;
}

/**
 * The date seniority counts from when only a year and month are known: the first day of the next
 * month, so that an unknown day never counts as time worked.
 */
export function startOfMonthAfter(year: number, month: number): string | null {
  if (!makeCalendarDate(year, month, 1)) return null;
  return addMonths(formatIsoDate({ year, month, day: 1 }), 1);
}
