/**
 * The leads table and the lead sealer as the service writes them, for tests and benchmarks that
 * read or seed leads straight in the database rather than through the API.
 */
import type { Db } from '../src/db/index.ts';
import { createLeadSealer } from '../src/leads/index.ts';
import { createLeadsRepository } from '../src/leads/leads.repository.ts';
import { createFieldEncryption } from '../src/shared/index.ts';
import { createLeadKeys } from '../src/lead-keys/index.ts';

export function leadsTable(db: Db) {
  return createLeadsRepository(db);
}

/**
 * Seals with each lead's own key, wrapped by the service's data encryption key (and reads what its previous
 * keys sealed), as the service does: call `forWriting` / `forWritingAll` before `seal`.
 */
export function leadSealer(db: Db, encryptionKey: Buffer, previousKeys: Buffer[] = []) {
  const encryption = createFieldEncryption(encryptionKey, previousKeys);
  return createLeadSealer(createLeadKeys({ db, encryption, now: () => Date.now() }).sealing);
}

export interface LeadStore {
  repository: ReturnType<typeof leadsTable>;
  sealer: ReturnType<typeof leadSealer>;
}
