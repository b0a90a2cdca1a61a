/** What other modules use of the db module. */
export { DataDirLockedError } from './data-dir-lock.ts';
export type { Queryable, Db, Transaction } from './database.ts';
export { migrate } from './migrate.ts';
export { openDatabase, preparedEmbeddedDatabase } from './open-database.ts';
export { pgliteDb } from './pglite-db.ts';
export { RestoreRefusedError, restoreDataDir } from './restore-data-dir.ts';
export { type EncryptedColumn, createSealedValues, type KeyCount, type SealedValues } from './sealed-values.ts';
