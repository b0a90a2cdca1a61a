/**
 * Consent receipts: the PIN confirmation that authorized a lead's bureau query, kept once per lead,
 * and the masked destination the PIN went to. Only this module writes `lead_consents`.
 */
export type { ConsentReceipt } from './consent.repository.ts';
export { maskDestination } from './mask.ts';
export { createConsentModule, type ConsentModule, type Consents } from './consent.module.ts';
