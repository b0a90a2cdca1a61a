/**
 * Consent receipts: the PIN confirmation that authorized a lead's bureau query, kept once per lead,
 * and the masked destination the PIN went to. Only this module writes `lead_consents`.
 */
import type { Queryable } from '../db/index.ts';
import { createConsentRepository } from './consent.repository.ts';

export type { ConsentReceipt } from './consent.repository.ts';
export { maskDestination } from './mask.ts';

export function createConsents(db: Queryable) {
  const repository = createConsentRepository(db);
  return {
    /** The first confirmation is the consent; a retried confirmation (after a bureau failure) keeps it. */
    record: repository.record,
    /** The lead's receipt; undefined before its PIN was confirmed. */
    of: repository.of,
  };
}

export type Consents = ReturnType<typeof createConsents>;
