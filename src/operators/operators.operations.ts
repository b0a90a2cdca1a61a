/** What the OpenAPI document says of each operator operation, keyed by operationId. */
import { operationTable } from '../http/index.ts';

export const operatorsOperations = operationTable({
  createOperator: {
    summary: 'Create an operator (the key is shown only here)',
    description: '`password` (12+ characters) requires `email`; it is stored with scrypt.',
  },
  listOperators: {
    summary: 'List operators',
  },
  deleteOperator: {
    summary: 'Delete an operator; its key answers 401 from then on',
  },
});
