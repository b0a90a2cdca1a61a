/**
 * The `sandbox` credit bureau: deterministic reports so partners can script every outcome.
 *
 * The two homonymy characters of the RFC (positions 11–12, right before the check digit) pick a
 * test profile; any other RFC gets a profile derived from its SHA-256, so the same person always
 * gets the same report. Dates are relative to the injected clock, so "a delinquency in the last
 * 12 months" stays true whenever the sandbox is used.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../shared/index.ts';
import type { ProviderResult } from '../providers/index.ts';
import type {
  BureauAccount,
  BureauAnswer,
  BureauInquiry,
  BureauProvider,
  BureauReport,
  BureauSubject,
} from './report.ts';

export const SANDBOX_PROFILES = ['A1', 'B1', 'C1', 'D1', 'N1', 'E1', 'T1'] as const;
export type SandboxProfile = (typeof SANDBOX_PROFILES)[number];

/** What a report needs besides the provider, folio and time of query. */
type ReportBody = Pick<BureauReport, 'recordFound' | 'score' | 'accounts' | 'inquiries'>;

// Clearly fictitious lenders: a sandbox report must never look like a real person's file.
const LENDERS = [
  'BANCO DEMO',
  'FINANCIERA EJEMPLO',
  'TIENDA DEPARTAMENTAL DEMO',
  'AUTOFIN DEMO',
  'TELEFONIA DEMO',
] as const;

/** The calendar date (UTC) `months` whole months before `now`, day clamped to the month's end. */
export function monthsAgo(now: Date, months: number): string {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(now.getUTCDate(), lastDay));
  return first.toISOString().slice(0, 10);
}

interface AccountSpec {
  type: string;
  lender: string;
  openedMonthsAgo: number;
  creditLimit: number;
  balance: number;
  monthlyPayment: number;
  worstDays?: number;
  worstMonthsAgo?: number;
}

function account(now: Date, spec: AccountSpec): BureauAccount {
  const worstDays = spec.worstDays ?? 0;
  return {
    type: spec.type,
    lender: spec.lender,
    openedAt: monthsAgo(now, spec.openedMonthsAgo),
    creditLimit: spec.creditLimit,
    balance: spec.balance,
    monthlyPayment: spec.monthlyPayment,
    worstDelinquencyDays: worstDays,
    worstDelinquencyDate: worstDays > 0 ? monthsAgo(now, spec.worstMonthsAgo ?? 0) : null,
  };
}

function inquiry(now: Date, months: number, lender: string): BureauInquiry {
  return { date: monthsAgo(now, months), lender };
}

/** The fixed profiles; E1 and T1 never produce a report. */
const fixedProfiles: Record<Exclude<SandboxProfile, 'E1' | 'T1'>, (now: Date) => ReportBody> = {
  // Excellent: long history, a small card balance paid on time, a car loan already paid off.
  A1: (now) => ({
    recordFound: true,
    score: 780,
    accounts: [
      account(now, {
        type: 'CREDIT_CARD',
        lender: LENDERS[0],
        openedMonthsAgo: 96,
        creditLimit: 80_000,
        balance: 3_200,
        monthlyPayment: 640,
      }),
      account(now, {
        type: 'AUTO_LOAN',
        lender: LENDERS[3],
        openedMonthsAgo: 72,
        creditLimit: 180_000,
        balance: 0,
        monthlyPayment: 0,
      }),
    ],
    inquiries: [inquiry(now, 3, LENDERS[0])],
  }),
  // Fair: moderate balances; one 30-day delinquency more than three years ago.
  B1: (now) => ({
    recordFound: true,
    score: 650,
    accounts: [
      account(now, {
        type: 'CREDIT_CARD',
        lender: LENDERS[0],
        openedMonthsAgo: 60,
        creditLimit: 40_000,
        balance: 16_000,
        monthlyPayment: 1_600,
        worstDays: 30,
        worstMonthsAgo: 40,
      }),
      account(now, {
        type: 'PERSONAL_LOAN',
        lender: LENDERS[1],
        openedMonthsAgo: 14,
        creditLimit: 60_000,
        balance: 32_000,
        monthlyPayment: 2_900,
      }),
    ],
    inquiries: [inquiry(now, 2, LENDERS[1]), inquiry(now, 9, LENDERS[2])],
  }),
  // Poor: every line close to its limit, many recent inquiries; no delinquency, so the score decides.
  C1: (now) => ({
    recordFound: true,
    score: 520,
    accounts: [
      account(now, {
        type: 'CREDIT_CARD',
        lender: LENDERS[0],
        openedMonthsAgo: 30,
        creditLimit: 30_000,
        balance: 28_500,
        monthlyPayment: 2_850,
      }),
      account(now, {
        type: 'CREDIT_CARD',
        lender: LENDERS[2],
        openedMonthsAgo: 18,
        creditLimit: 20_000,
        balance: 19_600,
        monthlyPayment: 1_960,
      }),
      account(now, {
        type: 'PERSONAL_LOAN',
        lender: LENDERS[1],
        openedMonthsAgo: 8,
        creditLimit: 50_000,
        balance: 46_000,
        monthlyPayment: 3_800,
      }),
    ],
    inquiries: [inquiry(now, 1, LENDERS[1]), inquiry(now, 2, LENDERS[2]), inquiry(now, 4, LENDERS[0])],
  }),
  // A 90-day delinquency five months ago; the score stays above the usual minimum so that the
  // delinquency rule alone decides.
  D1: (now) => ({
    recordFound: true,
    score: 640,
    accounts: [
      account(now, {
        type: 'CREDIT_CARD',
        lender: LENDERS[0],
        openedMonthsAgo: 48,
        creditLimit: 35_000,
        balance: 21_000,
        monthlyPayment: 2_100,
        worstDays: 90,
        worstMonthsAgo: 5,
      }),
      account(now, {
        type: 'PERSONAL_LOAN',
        lender: LENDERS[1],
        openedMonthsAgo: 20,
        creditLimit: 40_000,
        balance: 18_000,
        monthlyPayment: 1_900,
      }),
    ],
    inquiries: [inquiry(now, 6, LENDERS[0])],
  }),
  N1: () => ({ recordFound: false, score: null, accounts: [], inquiries: [] }),
};

/** Kinds of account a hashed profile may hold; cards weigh more, as in real files. */
const HASHED_ACCOUNT_KINDS = [
  { type: 'CREDIT_CARD', lender: LENDERS[0], minLimit: 10_000, maxLimit: 120_000, paymentShare: 0.05 },
  { type: 'CREDIT_CARD', lender: LENDERS[2], minLimit: 5_000, maxLimit: 40_000, paymentShare: 0.06 },
  { type: 'CREDIT_CARD', lender: LENDERS[0], minLimit: 10_000, maxLimit: 120_000, paymentShare: 0.05 },
  { type: 'PERSONAL_LOAN', lender: LENDERS[1], minLimit: 20_000, maxLimit: 150_000, paymentShare: 0.045 },
  { type: 'PERSONAL_LOAN', lender: LENDERS[1], minLimit: 20_000, maxLimit: 150_000, paymentShare: 0.045 },
  { type: 'AUTO_LOAN', lender: LENDERS[3], minLimit: 150_000, maxLimit: 450_000, paymentShare: 0.025 },
  { type: 'TELECOM', lender: LENDERS[4], minLimit: 2_000, maxLimit: 15_000, paymentShare: 0.1 },
  { type: 'MORTGAGE', lender: LENDERS[0], minLimit: 800_000, maxLimit: 2_500_000, paymentShare: 0.01 },
] as const;

/** One hashed account from five bytes of the hash. */
function hashedAccount(now: Date, score: number, b: Uint8Array): BureauAccount {
  const kind = HASHED_ACCOUNT_KINDS[b[0] % HASHED_ACCOUNT_KINDS.length];
  const creditLimit = Math.round((kind.minLimit + ((kind.maxLimit - kind.minLimit) * b[1]) / 255) / 1_000) * 1_000;
  const balance = Math.round((creditLimit * b[2]) / 255);
  const openedMonthsAgo = 6 + (b[3] % 115);
  // Lower scores carry some delinquency, as real files do; never before the account was opened.
  const worstDays = score < 600 && b[4] % 3 === 0 ? 60 : score < 700 && b[4] % 5 === 0 ? 30 : 0;
  return account(now, {
    type: kind.type,
    lender: kind.lender,
    openedMonthsAgo,
    creditLimit,
    balance,
    monthlyPayment: Math.round(balance * kind.paymentShare),
    worstDays,
    worstMonthsAgo: 1 + (b[4] % Math.min(36, openedMonthsAgo - 1)),
  });
}

/** A stable profile for any other RFC: every number comes from bytes of sha256(RFC). */
export function hashedProfile(rfc: string, now: Date): ReportBody {
  const h = createHash('sha256').update(rfc).digest();
  const score = 450 + (h.readUInt16BE(0) % 371); // 450–820
  const accounts = Array.from({ length: h[2] % 5 }, (_, k) =>
    hashedAccount(now, score, h.subarray(3 + k * 5, 8 + k * 5)),
  );
  const inquiries = Array.from({ length: h[28] % 4 }, (_, k) => inquiry(now, 1 + (h[29 + k] % 12), LENDERS[k]));
  return { recordFound: true, score, accounts, inquiries };
}

/** The profile an RFC selects, or null when it gets a hashed one. */
export function sandboxProfileOf(rfc: string): SandboxProfile | null {
  const key = rfc.slice(10, 12);
  return (SANDBOX_PROFILES as readonly string[]).includes(key) ? (key as SandboxProfile) : null;
}

export function createSandboxBureau(clock: Clock): BureauProvider {
  return {
    name: 'sandbox',
    async query(subject: BureauSubject, signal: AbortSignal): Promise<ProviderResult<BureauAnswer>> {
      // A caller that already gave up gets what an abandoned real call gets.
      if (signal.aborted) return { ok: false, kind: 'timeout', detail: 'aborted before the query' };
      const rfc = subject.rfc.trim().toUpperCase();
      const profile = sandboxProfileOf(rfc);
      if (profile === 'E1') return { ok: false, kind: 'error', detail: 'sandbox profile E1: bureau unavailable' };
      // T1 answers at once: simulating the wait would only slow partners' test suites.
      if (profile === 'T1') return { ok: false, kind: 'timeout', detail: 'sandbox profile T1: bureau timeout' };
      const now = clock.now();
      const queriedAt = now.toISOString();
      const body = profile ? fixedProfiles[profile](now) : hashedProfile(rfc, now);
      const digest = createHash('sha256').update(`${rfc}|${queriedAt}`).digest('hex');
      const folio = `SBX-${digest.slice(0, 12).toUpperCase()}`;
      // The sandbox has no answer of its own besides the report.
      return { ok: true, value: { report: { provider: 'sandbox', folio, queriedAt, ...body }, raw: null } };
    },
  };
}
