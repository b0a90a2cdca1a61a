/** What the OpenAPI document says of each of the lender's lead operations, keyed by operationId. */
import { operationTable } from '../http/index.ts';

export const lenderOperations = operationTable({
  listAllLeads: {
    summary: "Every company's leads, newest first",
    description: 'Summaries without personal data, in pages (`limit`, `cursor`). Not audited.',
  },
  exportLeads: {
    summary: 'Export leads with their personal data (streamed)',
    description:
      'The same filters as the list; `format` `ndjson` (default) or `csv`. One line per lead, newest first. ' +
      'Audited with the filter and the row count.',
  },
  readLeadAsLender: {
    summary: 'A lead with its personal data, consent, bureau summary and explanation',
    description: 'Every successful read writes an audit record.',
  },
  erasePersonalData: {
    summary: "Erase a lead's personal data",
    description:
      'Erases contact, address, financial and person data and the bureau report; the lead keeps its status, ' +
      'decision, reasons, loan info, vehicle and events. Audited.',
  },
  purgePersonalData: {
    summary: 'Run the retention purge now',
    description:
      'Erases the personal data of every lead unchanged for PII_RETENTION_DAYS (the service also runs it daily). ' +
      '`dryRun` only lists them.',
  },
});
