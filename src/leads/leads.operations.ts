/** What the OpenAPI document says of each lead operation, keyed by operationId. */
import { operationTable } from '../http/index.ts';

export const leadsOperations = operationTable({
  createLead: {
    summary: 'Create a lead',
    description:
      'Creates a lead, optionally for an affiliate of the company and pre-filled. Answers 201 with `{id}` and a ' +
      '`Location`. An `Idempotency-Key` makes retries safe: the same key and body within 24 h returns the first ' +
      'answer; another body is 409 / 4091.',
  },
  listLeads: {
    summary: 'List the company’s leads',
    description:
      'Newest first, in pages (`limit`, `cursor`). Without `status`, leads with no section saved yet (CREATED) are ' +
      'left out.',
  },
  getLead: {
    summary: 'Read a lead',
    description: 'Every section, the status, warnings, verification and pre-qualification.',
  },
  listLeadEvents: {
    summary: 'History of a lead',
    description: 'Who changed which section when: field names only, never values.',
  },
  saveLoanInfo: {
    summary: 'Save loan info',
    description: 'Down payment, term, purchase intention and phone. 204.',
  },
  saveContactInfo: {
    summary: 'Save contact info and create the card',
    description: 'Saves phone and e-mail; the lead becomes IN_PROGRESS and appears in the lead list. 204.',
  },
  updateContact: {
    summary: 'Update phone and e-mail',
    description: 'A 400 here has code 400 and lists every bad field in `additionalData.errors`. 204.',
  },
  saveAddress: {
    summary: 'Save the address',
    description: 'The ZIP code must exist; the neighborhood is matched against its settlements. 200 with no body.',
  },
  saveVehicle: {
    summary: 'Save the vehicle and its estimated price',
    description: '`id` is a version id of the vehicle catalog. 204.',
  },
  saveFinancial: {
    summary: 'Save employment and income',
    description: 'Replaces the financial section. 200 with no body.',
  },
  savePerson: {
    summary: 'Save the person',
    description: 'Names, RFC and birth date (an adult; the RFC’s date must equal it). 200 with no body.',
  },
});
