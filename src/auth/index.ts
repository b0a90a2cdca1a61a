/** What other modules use of the auth module. */

export { createAuthModule } from './auth.module.ts';
export { registerPartnerGuard, requireAuth } from './partner-guard.ts';
