/**
 * SMS "provider" of the sandbox (SMS_PROVIDER=log): records that a message was sent, nothing more.
 * The phone and the body never reach the log (the body carries the PIN); a sandbox that must show
 * the PIN to its developers passes a `sink`, so the composition root decides where it goes.
 */
import type { ProviderLogger } from './logger-port.ts';
import type { SmsMessage, SmsSender } from './ports.ts';

/** `+525512345678` → `**********78`: enough to tell two test phones apart, not to dial one. */
export function maskPhone(phone: string): string {
  const visible = phone.length > 4 ? phone.slice(-2) : '';
  return '*'.repeat(Math.max(phone.length - visible.length, 0)) + visible;
}

export function createLogSmsSender(logger: ProviderLogger, sink?: (message: SmsMessage) => void): SmsSender {
  return {
    name: 'log',
    async send(message, signal) {
      if (signal.aborted) return { ok: false, kind: 'timeout' };
      logger.info({ provider: 'log', toMasked: maskPhone(message.to), bodyLength: message.body.length }, 'sms sent');
      sink?.({ to: message.to, body: message.body });
      return { ok: true, value: undefined };
    },
  };
}
