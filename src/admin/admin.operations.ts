/** What the OpenAPI document says of each operation under /admin here, keyed by operationId. */
import { operationTable } from '../http/index.ts';

const catalogImport =
  'The body is the catalog file: CSV (UTF-8, the documented header) sent as `text/csv`, or gzip-compressed as ' +
  '`application/gzip` / `application/octet-stream`. Taken whole or refused whole: a malformed file is 400 / 40015 ' +
  'with the first problem and its line (`additionalData.line`, 0 for the file as a whole), and the catalog in ' +
  'force stays. Every instance serves the new catalog within seconds.';
const catalogTooLarge = { 413: 'The file is over 64 MiB.' };

export const adminOperations = operationTable({
  createCompany: {
    summary: 'Create a company',
  },
  listCompanies: {
    summary: 'List companies',
  },
  showCompany: {
    summary: 'Show one company',
  },
  listCredentials: {
    summary: "List a company's credentials (never their secrets)",
  },
  listAffiliates: {
    summary: "List a company's affiliates",
  },
  createCredential: {
    summary: 'Create a credential (the secret is shown only here)',
  },
  revokeCredential: {
    summary: 'Revoke a credential; its tokens answer 401 from then on',
  },
  createAffiliate: {
    summary: 'Add an affiliate to a company',
  },
  importVehicleCatalog: {
    summary: 'Replace the vehicle catalog',
    description: catalogImport,
    errorDescriptions: catalogTooLarge,
  },
  importZipCodeCatalog: {
    summary: 'Replace the SEPOMEX ZIP-code catalog',
    description: catalogImport,
    errorDescriptions: catalogTooLarge,
  },
});
