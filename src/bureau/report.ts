/**
 * The bureau report and the port its adapters implement. Pre-qualification reads only this shape,
 * whichever bureau produced it (sandbox, the `http` gateway contract or Círculo de Crédito).
 */
import type { ProviderResult } from '../providers/index.ts';

/** What the bureau is asked about: the person and address of a verified lead. */
export interface BureauSubject {
  rfc: string;
  firstName: string;
  secondName: string;
  lastName: string;
  secondLastName: string;
  birthDate: string; // YYYY-MM-DD
  address: {
    street: string;
    number: string;
    interior: string | null;
    zipCode: string;
    neighborhood: string;
    municipality: string | null;
    state: string | null;
    /** The ZIP catalog's city and state code (INEGI, "09" for Ciudad de México). */
    city: string | null;
    stateId: string | null;
  };
}

export interface BureauAccount {
  /** e.g. CREDIT_CARD, AUTO_LOAN, PERSONAL_LOAN, MORTGAGE, TELECOM */
  type: string;
  lender: string;
  openedAt: string; // YYYY-MM-DD
  creditLimit: number;
  balance: number;
  monthlyPayment: number;
  /** Worst days past due ever seen on the account (0 = always current). */
  worstDelinquencyDays: number;
  /** When that worst delinquency happened, YYYY-MM-DD, or null. */
  worstDelinquencyDate: string | null;
  /** Amount past due today, when the bureau reports it. */
  pastDue?: number;
  /** The bureau's payment history string, most recent month first, when it reports one. */
  paymentHistory?: string;
}

export interface BureauInquiry {
  date: string; // YYYY-MM-DD
  lender: string;
}

/** A report shaped like a Mexican credit bureau's (Buró de Crédito / Círculo de Crédito). */
export interface BureauReport {
  provider: string;
  folio: string;
  queriedAt: string; // ISO date-time
  recordFound: boolean;
  /** Score 300–850, or null when there is no record. */
  score: number | null;
  accounts: BureauAccount[];
  inquiries: BureauInquiry[];
}

/** A report and the bureau's own answer it was read from (kept encrypted with the lead), if any. */
export interface BureauAnswer {
  report: BureauReport;
  raw: string | null;
}

export interface BureauProvider {
  readonly name: string;
  query(subject: BureauSubject, signal: AbortSignal): Promise<ProviderResult<BureauAnswer>>;
  close?(): Promise<void>;
}
