/**
 * What other modules and the composition root may use of the verification module: the PIN send and
 * confirmation (and the erasure of a lead's PIN), with their metrics. Only this module writes
 * `lead_pins` and `pin_sends`.
 */

export { createVerificationModule } from './verification.module.ts';
