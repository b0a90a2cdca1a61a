/** What the OpenAPI document says of the backup operation, keyed by operationId. */
import { operationTable } from '../http/index.ts';

export const backupOperations = operationTable({
  backupDatabase: {
    summary: 'A consistent copy of the embedded database (streamed)',
    description:
      'A gzip’d tar of the embedded database’s folder, taken while the service serves: every transaction committed ' +
      'before the copy began is in it, none half. `autofin backup --out FILE` saves it and `autofin restore FILE` ' +
      'loads it into an empty DATA_DIR. Statements wait while the copy is read (about a second per 100 MB). ' +
      'The keys are not in it. On PostgreSQL the answer is 409 / 4095: use pg_dump.',
    errorDescriptions: { 409: 'The service runs on PostgreSQL: back it up with pg_dump (docs/operations.md).' },
  },
});
