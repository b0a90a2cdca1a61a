/**
 * The consent module as the composition root uses it: the consent receipts verification records
 * and the lender reads.
 */
import type { Queryable } from '../db/index.ts';
import { createConsentRepository } from './consent.repository.ts';

function createConsents(db: Queryable) {
  const repository = createConsentRepository(db);
  return {
    /** The first confirmation is the consent; a retried confirmation (after a bureau failure) keeps it. */
    record: repository.record,
    /** The lead's receipt; undefined before its PIN was confirmed. */
    of: repository.of,
  };
}

export type Consents = ReturnType<typeof createConsents>;

export function createConsentModule(deps: { db: Queryable }) {
  return { consents: createConsents(deps.db) };
}

export type ConsentModule = ReturnType<typeof createConsentModule>;
