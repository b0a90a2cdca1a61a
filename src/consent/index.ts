/**
 * Consent receipts: the PIN confirmation that authorized a lead's bureau query, kept once per lead,
 * and the masked destination the PIN went to. Only this module writes `lead_consents`.
 */

export { maskDestination } from './mask.ts';
export { createConsentModule, type Consents } from './consent.module.ts';
