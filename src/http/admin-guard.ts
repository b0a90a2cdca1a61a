/**
 * Guards the admin API and metrics. `Authorization: Bearer $ADMIN_TOKEN` acts as an admin; with an
 * operator resolver, an operator key (`op_…`) acts with its operator's role. A route opens itself
 * to other roles with its policy's `roles` (route-policy.ts); every other admin route is admin-only,
 * so an analyst gets 403 / 4030 there (docs/lender-api.md). Anything else, a partner token included,
 * is 401.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from './app-error.ts';
import { policyOf } from './route-policy.ts';
import { adminTokenOperator, roleAllows, type OperatorContext } from '../shared/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    operator: OperatorContext | undefined;
  }
}

export interface OperatorResolver {
  authenticate(key: string): Promise<OperatorContext | undefined>;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The operator of an admin request (set by the guard). */
export function requireOperator(request: FastifyRequest): OperatorContext {
  if (!request.operator) throw errors.missingToken();
  return request.operator;
}

export function registerAdminGuard(scope: FastifyInstance, adminToken: string, operators?: OperatorResolver): void {
  const expected = digest(`Bearer ${adminToken}`);
  if (!scope.hasRequestDecorator('operator')) scope.decorateRequest('operator', undefined);
  scope.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header) throw errors.missingToken();
    // Compare digests so the check takes the same time whatever the header's length.
    let operator: OperatorContext | undefined = timingSafeEqual(digest(header), expected)
      ? adminTokenOperator
      : undefined;
    if (!operator && operators && header.startsWith('Bearer op_'))
      operator = await operators.authenticate(header.slice('Bearer '.length));
    if (!operator) throw errors.unauthorized('invalid admin token');
    if (!roleAllows(operator.role, policyOf(request).roles)) throw errors.forbidden();
    request.operator = operator;
  });
}
