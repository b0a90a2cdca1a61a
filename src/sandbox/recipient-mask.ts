/**
 * How the sandbox shows a message's recipient: as the logs show a phone (its last 2 digits), and an
 * e-mail by its first letter and domain. Enough to tell a partner's test leads apart, not to reach
 * the person behind one.
 */
import { maskPhone } from '../providers/index.ts';
import type { MagicChannel } from './magic-values.ts';

/** `ana.lopez@example.com` → `a***@example.com`; the local part's length is not shown either. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

export function maskRecipient(channel: MagicChannel, to: string): string {
  return channel === 'SMS' ? maskPhone(to) : maskEmail(to);
}
