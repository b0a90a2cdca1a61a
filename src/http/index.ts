/** What other modules use of the http module. */
export { registerAdminGuard, type OperatorResolver, requireOperator } from './admin-guard.ts';
export { adminRoutesOf, type AdminAccess, type ModuleRoutes } from './module-routes.ts';
export { errors, AppError, type FieldError, type FailureKind, toAppError } from './app-error.ts';
export { traceProviderCalls } from './call-context-hook.ts';
export { registerConnectionPolicy, slowClientOptions } from './connection-policy.ts';
export { dateFilter } from './date-filter.schema.ts';
export { isoInstant, parseDateFilter, readDateFilter } from './date-filter.ts';
export { sendEmpty } from './empty-reply.ts';
export { registerErrorHandler } from './error-handler.ts';
export { ErrorResponse } from './error-response.ts';
export { clientErrorHandler, frameworkErrorHandler } from './framework-errors.ts';
export { registerJsonParser } from './json-body.ts';
export { lazyChildLogger } from './lazy-request-logger.ts';
export { lazySerializerFactory } from './lazy-serializer.ts';
export { empty, errorAnswers, errorCase, ok, type ErrorCase, documented, type Access } from './openapi-answers.ts';
export { apiPrefix, registerOpenApi } from './openapi.ts';
export { operation, operationTable, type ErrorCases } from './operation.ts';
export { type RateLimiter, type LimitDecision, createMemoryRateLimiter } from './rate-limiter.ts';
export { requestIdOf } from './request-id.ts';
export { RequestLifecycle } from './request-lifecycle.ts';
export { registerRequestValidation } from './request-validation.ts';
export { policy, policyOf } from './route-policy.ts';
export { schemaValidatorCompiler } from './schema-validator.ts';
export { createRedisSharedCounters } from './shared-counters.ts';
export { createSharedRateLimiter } from './shared-rate-limiter.ts';
export {
  createMemorySlidingWindow,
  createRedisSlidingWindow,
  type SlidingWindowLimiter,
} from './sliding-window-limiter.ts';
export { trustProxyOption } from './trust-proxy.ts';
export { registerUnknownRouteHandler } from './unknown-route.ts';
export { toFieldErrors, type SchemaError } from './validation-errors.ts';
