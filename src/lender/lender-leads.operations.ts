/** What the OpenAPI document says of each of the lender's lead operations, keyed by operationId. */
import { errors, errorCase, operationTable, type ErrorCases } from '../http/index.ts';

/** The error cases every lender lead operation shares. */
const lenderCases: ErrorCases = {
  400: [
    errorCase(
      'Invalid filter or cursor',
      errors.invalidInput([{ field: 'cursor', errorDetail: 'is not a cursor of this list' }]),
    ),
  ],
  404: [errorCase('No such lead', errors.leadNotFound())],
};

export const lenderOperations = operationTable({
  listAllLeads: {
    summary: "Every company's leads, newest first",
    description: 'Summaries without personal data, in pages (`limit`, `cursor`). Not audited.',
    errorCases: lenderCases,
  },
  exportLeads: {
    summary: 'Export leads with their personal data (streamed)',
    description:
      'The same filters as the list; `format` `ndjson` (default) or `csv`. One line per lead, newest first. ' +
      'Audited with the filter and the row count.',
    errorCases: lenderCases,
  },
  readLeadAsLender: {
    summary: 'A lead with its personal data, consent, bureau summary and explanation',
    description: 'Every successful read writes an audit record.',
    errorCases: lenderCases,
  },
  readPersonalData: {
    summary: "Everything held about the lead's person (their right of access)",
    description:
      'Admins. The person, contact, address and financial sections, the consent with its unmasked destination, ' +
      'the bureau report as stored, the documents and the conditions, decrypted; after an erasure the erased ' +
      'sections are null. Every read writes an audit record (`personal_data_access`).',
    errorCases: lenderCases,
  },
  erasePersonalData: {
    summary: "Erase a lead's personal data",
    description:
      'Erases contact, address, financial and person data and the bureau report; the lead keeps its status, ' +
      'decision, reasons, loan info, vehicle and events. Audited. A credit inside its retention, or a lead ' +
      'under legal hold, is 409 / 4097 and keeps everything.',
    errorCases: {
      ...lenderCases,
      409: [
        errorCase(
          'A credit inside its retention, or a lead under legal hold',
          errors.legalRetention('2036-02-01T15:00:00.000Z', false),
        ),
      ],
    },
  },
  setLegalHold: {
    summary: 'Hold a lead: its personal data is kept until released',
    description: 'Admins. A second hold replaces the reason and keeps `since`. Audited (`legal_hold_set`).',
    errorCases: lenderCases,
  },
  readLegalHold: {
    summary: "A lead's legal hold",
    description: 'Admins. 404 / 4040 when the lead has none.',
    errorCases: { ...lenderCases, 404: [errorCase('No such lead, or no hold', errors.legalHoldNotFound())] },
  },
  releaseLegalHold: {
    summary: "Release a lead's legal hold",
    description: 'Admins. Audited (`legal_hold_released`); 404 / 4040 when the lead has none.',
    errorCases: { ...lenderCases, 404: [errorCase('No such lead, or no hold', errors.legalHoldNotFound())] },
  },
  purgePersonalData: {
    summary: 'Run the retention purge now',
    description:
      'Erases the personal data of every lead unchanged for PII_RETENTION_DAYS (the service also runs it daily). ' +
      '`dryRun` only lists them.',
    errorCases: lenderCases,
  },
});
