/**
 * Credit bureau over HTTP (BUREAU_PROVIDER=http): one JSON POST to a bureau gateway per verified
 * lead. The contract the gateway must follow is docs/bureau-http-contract.md; any change here
 * changes that document. A report that does not have the documented shape is a provider error
 * (603003): pre-qualification must never run on a half-understood report. undici and the
 * connection pool are loaded and made in the background once the adapter is made.
 */
import type { Dispatcher } from 'undici';
import { classifyThrown, describeError, readBoundedText, type ProviderResult } from '../providers/index.ts';
import { undiciClient } from '../shared/index.ts';
import type {
  BureauAccount,
  BureauAnswer,
  BureauInquiry,
  BureauProvider,
  BureauReport,
  BureauSubject,
} from './report.ts';

export interface HttpBureauConfig {
  /** BUREAU_URL; `https://user:pass@host/base` sends the credentials as HTTP Basic auth. */
  baseUrl: string;
  /** Shared connection pool; when absent the adapter owns one and closes it in close(). */
  dispatcher?: Dispatcher;
}

export type HttpBureau = BureauProvider & { close(): Promise<void> };

/** A real report is a few KiB; the bound keeps a broken gateway from filling memory. */
const MAX_REPORT_BYTES = 1024 * 1024;

export function createHttpBureau(config: HttpBureauConfig): HttpBureau {
  const client = undiciClient(
    ({ Agent }) => new Agent({ keepAliveTimeout: 10_000, connections: 32 }),
    config.dispatcher,
  );
  client.warm();
  const { url, authorization } = endpointOf(config.baseUrl);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (authorization) headers.authorization = authorization;

  return {
    name: 'http',
    async query(subject, signal) {
      try {
        const { request, dispatcher } = await client.get();
        const response = await request(url, {
          method: 'POST',
          headers,
          body: JSON.stringify(contractBody(subject)),
          signal,
          dispatcher,
        });
        return await outcomeOf(response, signal);
      } catch (err) {
        return { ok: false, kind: classifyThrown(err, signal), detail: describeError(err) };
      }
    },
    close: () => client.close(),
  };
}

/** The request body of the contract: the subject's documented fields only. */
export function contractBody(subject: BureauSubject) {
  const { city: _city, stateId: _stateId, ...address } = subject.address;
  return { ...subject, address };
}

/** Credentials move from the URL to a header: undici refuses URLs that carry them, and logs must not show them. */
function endpointOf(baseUrl: string): { url: string; authorization: string | null } {
  const parsed = new URL(baseUrl);
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/v1/reports`;
  const authorization = user || pass ? `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` : null;
  return { url: parsed.toString(), authorization };
}

async function outcomeOf(
  response: Dispatcher.ResponseData,
  signal: AbortSignal,
): Promise<ProviderResult<BureauAnswer>> {
  const status = response.statusCode;
  if (status !== 200) {
    await response.body.dump({ limit: 64 * 1024, signal });
    // 404 is not "no record" (that is a 200 with recordFound false): it means a wrong BUREAU_URL.
    const kind = status >= 400 && status < 500 ? 'rejected' : 'error';
    return { ok: false, kind, detail: `HTTP ${status}` };
  }
  const text = await readBoundedText(response.body, MAX_REPORT_BYTES);
  if (text === null) return { ok: false, kind: 'error', detail: 'report too large' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, kind: 'error', detail: 'report is not JSON' };
  }
  const report = parseReport(json);
  return report
    ? { ok: true, value: { report, raw: text } }
    : { ok: false, kind: 'error', detail: 'report has an invalid shape' };
}

type Json = Record<string, unknown>;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;
// The round trip refuses dates V8 would roll over (2024-02-30 → March 1).
const isDate = (v: unknown): v is string =>
  typeof v === 'string' && DATE.test(v) && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().slice(0, 10) === v;
const isAmount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isDays = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** Validates the documented shape and copies only the documented fields (unknown ones are dropped). */
export function parseReport(v: unknown): BureauReport | null {
  if (!isObject(v) || !isText(v.provider) || !isText(v.folio) || typeof v.recordFound !== 'boolean') return null;
  if (typeof v.queriedAt !== 'string' || Number.isNaN(Date.parse(v.queriedAt))) return null;
  const score = v.score;
  const scoreOk = score === null || (Number.isInteger(score) && (score as number) >= 300 && (score as number) <= 850);
  if (!scoreOk || (!v.recordFound && score !== null)) return null;
  if (!Array.isArray(v.accounts) || !Array.isArray(v.inquiries)) return null;
  const accounts = v.accounts.map(parseAccount);
  const inquiries = v.inquiries.map(parseInquiry);
  if (accounts.includes(null) || inquiries.includes(null)) return null;
  return {
    provider: v.provider,
    folio: v.folio,
    queriedAt: v.queriedAt,
    recordFound: v.recordFound,
    score: score as number | null,
    accounts: accounts as BureauAccount[],
    inquiries: inquiries as BureauInquiry[],
  };
}

function parseAccount(v: unknown): BureauAccount | null {
  if (!isObject(v) || !isText(v.type) || !isText(v.lender) || !isDate(v.openedAt)) return null;
  if (!isAmount(v.creditLimit) || !isAmount(v.balance) || !isAmount(v.monthlyPayment)) return null;
  if (!isDays(v.worstDelinquencyDays)) return null;
  if (v.worstDelinquencyDate !== null && !isDate(v.worstDelinquencyDate)) return null;
  return {
    type: v.type,
    lender: v.lender,
    openedAt: v.openedAt,
    creditLimit: v.creditLimit,
    balance: v.balance,
    monthlyPayment: v.monthlyPayment,
    worstDelinquencyDays: v.worstDelinquencyDays,
    worstDelinquencyDate: v.worstDelinquencyDate,
  };
}

function parseInquiry(v: unknown): BureauInquiry | null {
  if (!isObject(v) || !isDate(v.date) || !isText(v.lender)) return null;
  return { date: v.date, lender: v.lender };
}
