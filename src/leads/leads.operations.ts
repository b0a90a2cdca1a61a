/** What the OpenAPI document says of each lead operation, keyed by operationId. */
import { errors, errorCase, operationTable, type ErrorCase, type ErrorCases } from '../http/index.ts';
import { uuidPattern } from '../shared/index.ts';
import { phonePattern } from './leads.schemas.ts';

const invalid = (field: string, errorDetail: string, code: 'default' | 'contact' = 'default'): ErrorCase =>
  errorCase(
    'Invalid input: every failing field is listed',
    (code === 'contact' ? errors.invalidContact : errors.invalidInput)([{ field, errorDetail }]),
  );
const noSuchLead = errorCase('No such lead, or another company’s', errors.leadNotFound());
const verified = errorCase('The lead is verified: its sections can no longer change', errors.leadVerified());
/** The error cases of a route that reads one lead. */
const readCases: ErrorCases = { 400: [invalid('leadId', `must match the pattern ${uuidPattern}`)], 404: [noSuchLead] };
const erased = errorCase(
  'The lender erased the lead’s personal data: none is written to it again',
  errors.personalDataErased(new Date('2026-11-02T17:30:00.000Z')),
);
/** The error cases of a section write whose invalid input is `bad` (`personal`: it writes personal data). */
const saveCases = (bad: ErrorCase, personal = true): ErrorCases => ({
  400: [bad],
  404: [noSuchLead],
  409: personal ? [verified, erased] : [verified],
});

export const leadsOperations = operationTable({
  createLead: {
    summary: 'Create a lead',
    description:
      'Creates a lead, optionally for an affiliate of the company and pre-filled. Answers 201 with `{id}` and a ' +
      '`Location`. An `Idempotency-Key` makes retries safe: the same key and body within 24 h returns the first ' +
      'answer; another body is 409 / 4091.',
    errorCases: {
      400: [invalid('autoFinB2BLeadCreatePayload.phone', `must match the pattern ${phonePattern}`)],
      404: [errorCase('The affiliate is not one of the token’s company', errors.companyNotFound())],
      409: [errorCase('The Idempotency-Key was used with another body', errors.idempotencyConflict())],
    },
  },
  listLeads: {
    summary: 'List the company’s leads',
    description:
      'Newest first, in pages (`limit`, `cursor`). Without `status`, leads with no section saved yet (CREATED) are ' +
      'left out.',
    errorCases: { 400: [invalid('cursor', 'is not a cursor of this list')] },
  },
  getLead: {
    summary: 'Read a lead',
    description: 'Every section, the status, warnings, verification and pre-qualification.',
    errorCases: readCases,
  },
  listLeadEvents: {
    summary: 'History of a lead',
    description: 'Who changed which section when: field names only, never values.',
    errorCases: readCases,
  },
  saveLoanInfo: {
    summary: 'Save loan info',
    description: 'Down payment, term, purchase intention and phone. 204.',
    errorCases: saveCases(invalid('term', 'must be <= 360')),
  },
  saveContactInfo: {
    summary: 'Save contact info and create the card',
    description: 'Saves phone and e-mail; the lead becomes IN_PROGRESS and appears in the lead list. 204.',
    errorCases: saveCases(invalid('email', 'must match format "email"')),
  },
  updateContact: {
    summary: 'Update phone and e-mail',
    description: 'A 400 here has code 400 and lists every bad field in `additionalData.errors`. 204.',
    errorCases: saveCases(invalid('email', 'must match format "email"', 'contact')),
  },
  saveAddress: {
    summary: 'Save the address',
    description: 'The ZIP code must exist; the neighborhood is matched against its settlements. 200 with no body.',
    errorCases: saveCases(invalid('zipCode', 'is not a ZIP code of the SEPOMEX catalog')),
  },
  saveVehicle: {
    summary: 'Save the vehicle and its estimated price',
    description: '`id` is a version id of the vehicle catalog. 204.',
    errorCases: saveCases(invalid('id', 'is not a version of the vehicle catalog'), false),
  },
  saveFinancial: {
    summary: 'Save employment and income',
    description: 'Replaces the financial section. 200 with no body.',
    errorCases: saveCases(invalid('startDate.month', 'must be <= 12')),
  },
  savePerson: {
    summary: 'Save the person',
    description: 'Names, RFC and birth date (an adult; the RFC’s date must equal it). 200 with no body.',
    errorCases: saveCases(invalid('rfc', 'the date in the RFC (900215) must equal birthDate')),
  },
});
