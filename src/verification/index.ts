/**
 * What other modules and the composition root may use of the verification module: the PIN send and
 * confirmation (and the erasure of a lead's PIN), with their metrics. Only this module writes
 * `lead_pins` and `pin_sends`.
 */
export {
  createVerificationService,
  type CallOrigin,
  type Channel,
  type VerificationService,
} from './verification.service.ts';
export { instrumentVerification, type VerificationMetrics } from './verification-metrics.ts';
export { verificationRoutes } from './verification.routes.ts';
export { createVerificationModule, type VerificationModule } from './verification.module.ts';
