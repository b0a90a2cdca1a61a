/**
 * Ports of the third parties the service talks to. An adapter never throws for an expected
 * failure: it returns a failure kind, and exactly one place at the HTTP edge (toAppError in
 * http/app-error.ts) turns that into the contract's 412 / 6XXYYY answer. The bureau's port lives in
 * src/bureau/report.ts.
 */
export type ProviderKind = 'sms' | 'email' | 'bureau';
/**
 * timeout: no answer in time or unreachable; rejected: the provider refused our request; error: the provider
 * failed.
 */
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
