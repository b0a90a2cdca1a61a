/**
 * How the console writes values for people in Mexico: Spanish (es-MX) labels, times in
 * America/Mexico_City, amounts in pesos as "$220,000.00" (MXN), and how it reads the amounts people
 * type. The formats are made on first use (shared/lazily.ts).
 */
import type { LeadStatus } from '../lead-status/index.ts';
import { lazily } from '../shared/index.ts';

export const consoleTimeZone = 'America/Mexico_City';

/** A day in Mexico City ("23 nov 2026"). */
const day: Intl.DateTimeFormatOptions = { timeZone: consoleTimeZone, year: 'numeric', month: 'short', day: 'numeric' };
const dateTimeFormat = lazily(
  () => new Intl.DateTimeFormat('es-MX', { ...day, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
);
const dateFormat = lazily(() => new Intl.DateTimeFormat('es-MX', day));
// Calendar dates and months are days, not moments: formatted as written, in UTC, never shifted.
const calendarDateFormat = lazily(
  () =>
    new Intl.DateTimeFormat('es-MX', {
      timeZone: 'UTC',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
    }),
);
const monthFormat = lazily(() => new Intl.DateTimeFormat('es-MX', { timeZone: 'UTC', year: 'numeric', month: 'long' }));
const percentFormat = lazily(() => new Intl.NumberFormat('es-MX', { style: 'percent', maximumFractionDigits: 2 }));
const moneyFormat = lazily(() => new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }));
const numberFormat = lazily(() => new Intl.NumberFormat('es-MX'));

/** A moment as a person in Mexico City reads it ("23 nov 2026, 13:05"); "—" when absent. */
export function dateTime(value: string | Date | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return dateTimeFormat().format(typeof value === 'string' ? new Date(value) : value);
}

export function dateOnly(value: string | Date | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return dateFormat().format(typeof value === 'string' ? new Date(value) : value);
}

/** A calendar date as written in Spanish ("12 de abril de 1985"); the text itself when it is not YYYY-MM-DD. */
export function calendarDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const time = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  return Number.isNaN(time) ? value : calendarDateFormat().format(time);
}

/** A month of a year ("marzo de 2015"). */
export function monthOfYear(value: { year: number; month: number }): string {
  return monthFormat().format(Date.UTC(value.year, value.month - 1, 1));
}

/** A share (0.1) as a percentage ("10%"). */
export const percent = (value: number): string => percentFormat().format(value);

/** An amount in pesos as people in Mexico write it ("$350,000.00"); "—" when absent. */
export function money(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : moneyFormat().format(value);
}

/** An amount typed in a console form: the number, or why it is not one (in Spanish). */
export type TypedAmount = { value: number } | { error: string };

// Digits grouped by thousands with commas ("250,000") or not at all ("250000"), then at most two decimals.
const amountShape = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;

/**
 * An amount as an operator types it, the way `money` writes it: "$250,000.00", "250,000", "250000.5",
 * spaces anywhere. Anything else (letters, a minus sign, misplaced commas, more than two decimals) is
 * refused with a message for the field.
 */
export function parseAmount(typed: string): TypedAmount {
  const text = typed.replace(/\s/g, '').replace(/^\$/, '');
  const match = amountShape.exec(text);
  if (!match) return { error: 'Escribe un monto en pesos, por ejemplo $250,000.00.' };
  if ((match[1]?.length ?? 0) > 2) return { error: 'El monto lleva a lo más dos decimales (centavos).' };
  return { value: Number(text.replace(/,/g, '')) };
}

const sizeFormat = lazily(() => new Intl.NumberFormat('es-MX', { maximumFractionDigits: 1 }));

/** A file's size in bytes as people read it ("845 B", "1.9 kB", "3.2 MB"). */
export function fileSize(bytes: number): string {
  if (bytes < 1000) return `${numberFormat().format(bytes)} B`;
  if (bytes < 1000 * 1000) return `${sizeFormat().format(bytes / 1000)} kB`;
  return `${sizeFormat().format(bytes / (1000 * 1000))} MB`;
}

export function count(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : numberFormat().format(value);
}

export const statusLabels: Record<LeadStatus, string> = {
  CREATED: 'Creada',
  IN_PROGRESS: 'En captura',
  PIN_SENT: 'PIN enviado',
  VERIFIED: 'Verificada',
  PREQUALIFIED: 'Precalificada',
  NOT_PREQUALIFIED: 'No precalificada',
};

export const decisionLabels: Record<string, string> = {
  PREQUALIFIED: 'Precalificada',
  NOT_PREQUALIFIED: 'No precalificada',
  INCOMPLETE: 'Incompleta',
};

export const outcomeLabels: Record<string, string> = { pass: 'Cumple', fail: 'No cumple', missing: 'Falta dato' };

export const roleLabels: Record<string, string> = {
  admin: 'Administrador',
  analyst: 'Analista',
  officer: 'Oficial de crédito',
};

export const label = (labels: Record<string, string>, value: string | null | undefined): string =>
  value === null || value === undefined ? '—' : (labels[value] ?? value);

// Numbers that are codes or years, not quantities: no thousands separator.
const codeKeys = new Set(['id', 'year', 'modelYear', 'number', 'zipCode', 'term', 'month']);
export const plainCode = (key: string, value: unknown) =>
  codeKeys.has(key) && typeof value === 'number' ? String(value) : plain(value);

/** A value of any shape, for tables of facts (booleans as Sí/No). */
export function plain(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Sí' : 'No';
  if (typeof value === 'number') return numberFormat().format(value);
  if (Array.isArray(value)) return value.length ? value.map(plain).join('; ') : '—';
  if (typeof value === 'object')
    return Object.entries(value)
      .map(([k, v]) => `${k}: ${plainCode(k, v)}`)
      .join(', ');
  return String(value);
}

const dayMonthFormat = lazily(() => new Intl.DateTimeFormat('es-MX', { timeZone: 'UTC', month: 'long' }));

/** The parts of a `YYYY-MM-DD` day (years 1–99 kept as they are, unlike Date.UTC), or undefined. */
function dayParts(value: string): { day: number; month: string; year: number } | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return { day: date.getUTCDate(), month: dayMonthFormat().format(date), year: date.getUTCFullYear() };
}

/**
 * A window of days as a heading reads it in Spanish, naming the month and year once when they are shared:
 * "del 1 al 28 de noviembre de 2026", "del 30 de octubre al 2 de noviembre de 2026", "del 28 de noviembre de
 * 2026" (one day), "desde el 1 de noviembre de 2026", "hasta el 28 de noviembre de 2026".
 */
export function dayRange(from: string | undefined, to: string | undefined): string {
  const start = from === undefined ? undefined : dayParts(from);
  const end = to === undefined ? undefined : dayParts(to);
  const full = (p: { day: number; month: string; year: number }) => `${p.day} de ${p.month} de ${p.year}`;
  if (start && end) {
    if (start.year !== end.year) return `del ${full(start)} al ${full(end)}`;
    if (start.month !== end.month) return `del ${start.day} de ${start.month} al ${full(end)}`;
    if (start.day !== end.day) return `del ${start.day} al ${full(end)}`;
    return `del ${full(end)}`;
  }
  if (start) return `desde el ${full(start)}`;
  if (end) return `hasta el ${full(end)}`;
  return 'de todo el periodo';
}
