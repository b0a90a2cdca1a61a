/**
 * Ports of the third parties the service talks to. An adapter never throws for an expected
 * failure: it returns a failure kind, and exactly one place (outbound.ts + errors.providerFailed)
 * turns that into the contract's 412 / 6XXYYY answer. The bureau's port lives in src/bureau/report.ts.
 */
import type { FailureKind } from '../http/app-error.ts';

export type ProviderResult<T> = { ok: true; value: T } | { ok: false; kind: FailureKind; detail?: string };

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
