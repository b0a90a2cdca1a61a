/**
 * The keys module as the composition root uses it: key rotation over the stored values the other
 * modules encrypt (their keys checked before serving, and their re-encryption), and its admin routes.
 */
import { createSealedValues, type Db, type EncryptedColumn } from '../db/index.ts';
import type { AuditService } from '../audit/index.ts';
import { adminRoutesOf, type AdminAccess, type ModuleRoutes } from '../http/index.ts';
import type { FieldEncryption } from '../shared/index.ts';
import { keysRoutes } from './keys.routes.ts';
import { createKeysService } from './keys.service.ts';

export interface KeysModuleDeps {
  db: Db;
  encryption: FieldEncryption;
  /** The token signing keys' ids, current first (the auth module's). */
  signing: Parameters<typeof createKeysService>[0]['signing'];
  /** Every module's encrypted columns. */
  encryptedColumns: readonly EncryptedColumn[];
  access: AdminAccess;
  /** Each re-encryption is audited (action `keys_reencrypt`). */
  audit: Pick<AuditService, 'record'>;
  /** Moves leads' values sealed before lead keys to their leads' keys (src/lead-keys); how many it moved. */
  moveToLeadKeys: (limit: number) => Promise<number>;
}

export function createKeysModule(deps: KeysModuleDeps) {
  const values = createSealedValues(deps.db, deps.encryptedColumns, deps.encryption);
  const service = createKeysService({
    encryption: deps.encryption,
    signing: deps.signing,
    values,
    moveToLeadKeys: deps.moveToLeadKeys,
  });
  const routes: ModuleRoutes = {
    admin: adminRoutesOf(deps.access, (guard) => [keysRoutes({ keys: service, audit: deps.audit, ...guard })]),
  };
  return { service, routes };
}

export type KeysModule = ReturnType<typeof createKeysModule>;
