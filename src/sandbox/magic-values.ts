/**
 * The sandbox's magic recipients (docs/sandbox.md): a PIN sent to one of them fails on purpose with
 * the provider failure it names, whatever SMS or e-mail provider is configured, so a partner can test
 * its handling of each 412. Outside the sandbox nothing consults this table.
 */
import type { FailureKind } from '../http/index.ts';

export type MagicChannel = 'SMS' | 'EMAIL';

/** The lead's phone (ten digits, as saved) → the failure its PIN send simulates. */
export const magicPhones: Readonly<Record<string, FailureKind>> = {
  '5500000001': 'timeout',
  '5500000002': 'rejected',
  '5500000003': 'error',
};

/** The lead's e-mail → the failure its PIN send simulates. `.invalid` can never be a real domain. */
export const magicEmails: Readonly<Record<string, FailureKind>> = {
  'fail-timeout@sandbox.autofin.invalid': 'timeout',
  'fail-rejected@sandbox.autofin.invalid': 'rejected',
  'fail-error@sandbox.autofin.invalid': 'error',
};

/** The failure a send to this recipient simulates, or undefined for an ordinary recipient. */
export function magicFailure(channel: MagicChannel, recipient: string): FailureKind | undefined {
  const table = channel === 'SMS' ? magicPhones : magicEmails;
  // E-mail addresses are compared without case: a partner typing FAIL-ERROR@… means the same one.
  const key = channel === 'SMS' ? recipient.trim() : recipient.trim().toLowerCase();
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
