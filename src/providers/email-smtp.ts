/**
 * E-mail over SMTP (EMAIL_PROVIDER=smtp) through a nodemailer connection pool: a pooled send costs a
 * few milliseconds instead of a fresh handshake per message. The outcome is a value: an SMTP 5xx
 * reply is a refusal of our message (rejected, 602002), a 4xx reply a transient server trouble
 * (error, 602003), no connection or no answer a timeout (602001). nodemailer is imported when the
 * sender is made, so a service that does not send over SMTP never loads it.
 */
import { classifyThrown, describeError } from './outbound.ts';
import type { EmailSender, ProviderResult } from './ports.ts';

export interface SmtpEmailConfig {
  /** SMTP_URL: `smtp://[user:pass@]host:port` (STARTTLS when offered) or `smtps://…` (TLS from the start). */
  smtpUrl: string;
  /** EMAIL_FROM */
  from: string;
  /**
   * Bound of nodemailer's own connect and greeting waits (socket inactivity gets three times it).
   * They only clean up: the caller's AbortSignal is what limits one send.
   */
  socketTimeoutMs?: number;
}

export type SmtpEmailSender = EmailSender & { close(): Promise<void> };

/** Rejects, as nodemailer throws, when it refuses the URL (`smtp://ho%st`): at start, not at a first send. */
export async function createSmtpEmailSender(config: SmtpEmailConfig): Promise<SmtpEmailSender> {
  const waitMs = config.socketTimeoutMs ?? 10_000;
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    url: config.smtpUrl,
    pool: true,
    maxConnections: 5,
    connectionTimeout: waitMs,
    greetingTimeout: waitMs,
    socketTimeout: waitMs * 3,
    // Messages are plain text we compose; no part of one may make nodemailer read files or URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  });

  return {
    name: 'smtp',
    async send(message, signal) {
      try {
        // nodemailer ≥ 10.5 honors the signal: a queued send is dropped, an in-flight one closes its
        // connection. An abort cannot prove the server has not already accepted the message.
        await transport.sendMail({
          from: config.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          signal,
        });
        return { ok: true, value: undefined };
      } catch (err) {
        return failureOf(err, signal);
      }
    },
    async close() {
      // Idle connections close at once; one delivering a message finishes it first.
      transport.close();
    },
  };
}

/** The reply code decides when the server answered; otherwise the error says whether it was reachable. */
function failureOf(err: unknown, signal: AbortSignal): ProviderResult<void> {
  if (signal.aborted) return { ok: false, kind: 'timeout', detail: describeError(err) };
  const responseCode = (err as { responseCode?: unknown } | null)?.responseCode;
  if (typeof responseCode === 'number' && responseCode >= 400 && responseCode < 600) {
    // Only the code: the reply text often quotes the recipient address.
    return { ok: false, kind: responseCode >= 500 ? 'rejected' : 'error', detail: `SMTP ${responseCode}` };
  }
  return { ok: false, kind: classifyThrown(err, signal), detail: describeError(err) };
}
