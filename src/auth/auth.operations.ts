/** What the OpenAPI document says of the token operation, keyed by operationId. */
import { operationTable } from '../http/index.ts';

export const authOperations = operationTable({
  getToken: {
    summary: 'Get an access token',
    description:
      'Exchanges a consumer key and secret for a bearer token. Send `Accept-Version: v1` (absent means v1). Token ' +
      'requests are limited per consumer key, and failed ones per client address.',
  },
});
