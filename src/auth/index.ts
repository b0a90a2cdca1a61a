/** What other modules use of the auth module. */
export { createAccessTokens } from './access-token.ts';
export { authRoutes } from './auth.routes.ts';
export { createAuthService, type AuthService } from './auth.service.ts';
export { createCredentialStatusCache } from './credential-status-cache.ts';
export { registerPartnerGuard, requireAuth } from './partner-guard.ts';
export { createLocalRevocationBus, createRedisRevocationBus, type RevocationBus } from './revocation-bus.ts';
