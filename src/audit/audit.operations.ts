/** What the OpenAPI document says of the audit operation, keyed by operationId. */
import { operationTable } from '../http/index.ts';

export const auditOperations = operationTable({
  listAuditRecords: {
    summary: 'Audit of personal-data access, newest first',
  },
});
