/**
 * The leads table and the lead sealer as the service writes them, for tests and benchmarks that
 * read or seed leads straight in the database rather than through the API.
 */
import type { Db } from '../src/db/index.ts';
import { createLeadSealer } from '../src/leads/index.ts';
import { createLeadsRepository } from '../src/leads/leads.repository.ts';
import { createFieldEncryption } from '../src/shared/index.ts';

export function leadsTable(db: Db) {
  return createLeadsRepository(db);
}

/** Seals with the service's data encryption key (and reads what its previous keys sealed). */
export function leadSealer(encryptionKey: Buffer, previousKeys: Buffer[] = []) {
  return createLeadSealer(createFieldEncryption(encryptionKey, previousKeys));
}

export interface LeadStore {
  repository: ReturnType<typeof leadsTable>;
  sealer: ReturnType<typeof leadSealer>;
}
