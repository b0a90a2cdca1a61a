/**
 * Círculo de Crédito's report (v2 `Respuesta`) read into our bureau report, so pre-qualification
 * sees the same facts as with the sandbox: the FICO score of `scores[]`, each of `creditos[]` with
 * its balance, past-due amount, monthly payment (open accounts only), worst delinquency
 * (`peorAtraso` missed monthly payments × 30 days) and payment history, and `consultas[]`.
 * Amounts arrive as text or numbers; a present value that does not read as one makes the whole
 * report unreadable (null): pre-qualification must never run on a half-understood report.
 */
import type { BureauAccount, BureauInquiry, BureauReport } from './report.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^[+-]?\d+(?:\.\d+)?$/;

const isDate = (v: unknown): v is string =>
  typeof v === 'string' && DATE.test(v) && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().slice(0, 10) === v;

const absent = (v: unknown) => v === undefined || v === null || v === '';

/** A non-negative amount; absent is 0, unreadable is NaN. */
function amount(v: unknown): number {
  if (absent(v)) return 0;
  if (typeof v === 'number') return Number.isFinite(v) ? Math.max(0, v) : Number.NaN;
  if (typeof v !== 'string') return Number.NaN;
  const text = v.replace(/,/g, '').trim();
  return AMOUNT.test(text) ? Math.max(0, Number(text)) : Number.NaN;
}

/** A whole count (of missed payments); absent is 0, unreadable is NaN. */
function count(v: unknown): number {
  const n = amount(v);
  return Number.isInteger(n) ? n : Number.NaN;
}

function text(v: unknown, max = 200): string | null {
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') return null;
  const trimmed = v.trim();
  return trimmed && trimmed.length <= max ? trimmed : null;
}

/** Círculo's credit type codes we name; others keep Círculo's code. */
const ACCOUNT_TYPES: Readonly<Record<string, string>> = { TC: 'CREDIT_CARD', PP: 'PERSONAL_LOAN' };

function account(v: unknown): BureauAccount | null {
  if (!isObject(v)) return null;
  const lender = text(v.nombreOtorgante);
  if (!lender || !isDate(v.fechaAperturaCuenta)) return null;
  const open = absent(v.fechaCierreCuenta);
  if (!open && !isDate(v.fechaCierreCuenta)) return null;
  const balance = amount(v.saldoActual);
  const pastDue = amount(v.saldoVencido);
  const payment = amount(v.montoPagar);
  const creditLimit = absent(v.limiteCredito) ? amount(v.creditoMaximo) : amount(v.limiteCredito);
  const missedPayments = count(v.peorAtraso);
  if ([balance, pastDue, payment, creditLimit, missedPayments].some(Number.isNaN)) return null;
  const worstDays = missedPayments * 30;
  const history = text(v.historicoPagos, 100);
  const code = text(v.tipoCredito, 10);
  return {
    type: code ? (ACCOUNT_TYPES[code] ?? code) : 'UNKNOWN',
    lender,
    openedAt: v.fechaAperturaCuenta,
    creditLimit,
    balance,
    // What the person must pay each month: a closed account asks nothing more.
    monthlyPayment: open ? payment : 0,
    worstDelinquencyDays: worstDays,
    worstDelinquencyDate: worstDays > 0 && isDate(v.fechaPeorAtraso) ? v.fechaPeorAtraso : null,
    pastDue,
    ...(history ? { paymentHistory: history } : {}),
  };
}

function inquiry(v: unknown): BureauInquiry | null {
  if (!isObject(v) || !isDate(v.fechaConsulta)) return null;
  return { date: v.fechaConsulta, lender: text(v.nombreOtorgante) ?? 'DESCONOCIDO' };
}

/** The FICO entry's value when it is a score (300–850); exclusion codes and other scores give null. */
function ficoScore(scores: unknown): number | null | undefined {
  if (absent(scores)) return null;
  if (!Array.isArray(scores)) return undefined;
  const fico = scores.find((s) => isObject(s) && typeof s.nombreScore === 'string' && /FICO/i.test(s.nombreScore)) as
    Json | undefined;
  const value = fico ? Number(fico.valor) : Number.NaN;
  return Number.isInteger(value) && value >= 300 && value <= 850 ? value : null;
}

function list<T>(v: unknown, read: (item: unknown) => T | null): T[] | null {
  if (absent(v)) return [];
  if (!Array.isArray(v)) return null;
  const items = v.map(read);
  return items.includes(null) ? null : (items as T[]);
}

export function parseCirculoReport(body: unknown, queriedAt: string): BureauReport | null {
  if (!isObject(body)) return null;
  const folio = text(body.folioConsulta, 60);
  const score = ficoScore(body.scores);
  const accounts = list(body.creditos, account);
  const inquiries = list(body.consultas, inquiry);
  if (!folio || score === undefined || !accounts || !inquiries) return null;
  return { provider: 'circulo', folio, queriedAt, recordFound: true, score, accounts, inquiries };
}

/** Círculo's "person not found": a 404 whose `errores[]` carries the code 404.1. */
export function isPersonNotFound(body: unknown): boolean {
  return (
    isObject(body) &&
    Array.isArray(body.errores) &&
    body.errores.some((e) => isObject(e) && String(e.codigo).trim() === '404.1')
  );
}

export function noRecordReport(folio: string, queriedAt: string): BureauReport {
  return { provider: 'circulo', folio, queriedAt, recordFound: false, score: null, accounts: [], inquiries: [] };
}
