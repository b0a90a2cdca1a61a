/**
 * The PIN messages, in Spanish. Each carries exactly one 6-digit number, the PIN, and no link:
 * Mexican carriers filter SMS with links or loan wording.
 */
import type { EmailMessage, SmsMessage } from '../providers/index.ts';
import { pinValidityMs } from './pin.ts';

const minutes = pinValidityMs / 60_000;

export function pinSms(to: string, pin: string): SmsMessage {
  return { to, body: `Tu código de verificación es ${pin}. Vence en ${minutes} minutos. No lo compartas con nadie.` };
}

export function pinEmail(to: string, pin: string): EmailMessage {
  return {
    to,
    subject: 'Tu código de verificación',
    text: [
      'Hola:',
      '',
      `Tu código de verificación es ${pin}.`,
      '',
      `Vence en ${minutes} minutos. Si tú no lo solicitaste, ignora este mensaje y no lo compartas con nadie.`,
    ].join('\n'),
  };
}
