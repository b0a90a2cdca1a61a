/**
 * The keys module as the composition root uses it: key rotation over the stored values the other
 * modules encrypt (their keys checked before serving, and their re-encryption).
 */
import { createSealedValues, type Db, type EncryptedColumn } from '../db/index.ts';
import type { FieldEncryption } from '../shared/index.ts';
import { createKeysService } from './keys.service.ts';

export interface KeysModuleDeps {
  db: Db;
  encryption: FieldEncryption;
  /** The token signing keys' ids, current first (the auth module's). */
  signing: Parameters<typeof createKeysService>[0]['signing'];
  /** Every module's encrypted columns. */
  encryptedColumns: readonly EncryptedColumn[];
}

export function createKeysModule(deps: KeysModuleDeps) {
  const values = createSealedValues(deps.db, deps.encryptedColumns, deps.encryption);
  return { service: createKeysService({ encryption: deps.encryption, signing: deps.signing, values }) };
}

export type KeysModule = ReturnType<typeof createKeysModule>;
