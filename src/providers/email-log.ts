/**
 * E-mail "provider" of the sandbox (EMAIL_PROVIDER=log): records that a message was sent. Neither
 * the address, the subject nor the text reach the log (the text carries the PIN); a sandbox that
 * must show the PIN passes a `sink`, so the composition root decides where it goes.
 */
import type { ProviderLogger } from './logger-port.ts';
import type { EmailMessage, EmailSender } from './ports.ts';

export function createLogEmailSender(logger: ProviderLogger, sink?: (message: EmailMessage) => void): EmailSender {
  return {
    name: 'log',
    async send(message, signal) {
      if (signal.aborted) return { ok: false, kind: 'timeout' };
      logger.info(
        { provider: 'log', subjectLength: message.subject.length, textLength: message.text.length },
        'email sent',
      );
      sink?.({ to: message.to, subject: message.subject, text: message.text });
      return { ok: true, value: undefined };
    },
  };
}
