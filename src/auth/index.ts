/** What other modules use of the auth module. */
export { authRoutes } from './auth.routes.ts';
export type { AuthService } from './auth.service.ts';
export { createAuthModule } from './auth.module.ts';
export { registerPartnerGuard, requireAuth } from './partner-guard.ts';
