/** What the OpenAPI document says of each health operation, keyed by operationId. */
import { operationTable } from '../http/index.ts';

export const healthOperations = operationTable({
  liveness: {
    summary: 'The process is up',
  },
  readiness: {
    summary: 'The service can serve: its database answers',
  },
});
