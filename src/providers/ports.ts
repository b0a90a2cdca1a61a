/**
 * Ports of the third parties the service talks to. An adapter never throws for an expected
 * failure: it returns a failure kind, and exactly one place at the HTTP edge (toAppError in
 * http/app-error.ts) turns that into the contract's 412 / 6XXYYY answer.
 */
export type ProviderKind = 'sms' | 'email' | 'bureau';
/** timeout: no answer in time or unreachable; rejected: the provider refused our request; error: the provider failed. */
export type FailureKind = 'timeout' | 'rejected' | 'error' | 'circuit_open';

export type ProviderResult<T> = { ok: true; value: T } | { ok: false; kind: FailureKind; detail?: string };
export type ProviderFailure = Extract<ProviderResult<unknown>, { ok: false }>;

export interface SmsMessage {
  /** E.164, e.g. +525512345678 */
  to: string;
  body: string;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface SmsSender {
  readonly name: string;
  send(message: SmsMessage, signal: AbortSignal): Promise<ProviderResult<void>>;
  close?(): Promise<void>;
}

export interface EmailSender {
  readonly name: string;
  send(message: EmailMessage, signal: AbortSignal): Promise<ProviderResult<void>>;
  close?(): Promise<void>;
}

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

export interface BureauProvider {
  readonly name: string;
  query(subject: BureauSubject, signal: AbortSignal): Promise<ProviderResult<BureauReport>>;
  close?(): Promise<void>;
}
