/** What the OpenAPI document says of each key-rotation operation, keyed by operationId. */
import { operationTable } from '../http/index.ts';

export const keysOperations = operationTable({
  showKeys: {
    summary: 'The data encryption keys and the stored values under each',
  },
  reencryptValues: {
    summary: 'Re-encrypt stored values of previous keys with the current key',
    description:
      'Re-encrypts up to `limit` values (default 1000) written under a previous key. Online: safe beside traffic and ' +
      'on several instances at once. Call again until `remaining` is 0.',
  },
});
