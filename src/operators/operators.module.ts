/**
 * The operators module as the composition root uses it: the operators' service (which also resolves
 * the operator keys of every admin route), the lookup of an operator's account by e-mail the console's
 * sign-in reads, and the admin routes that manage operators.
 */
import type { Queryable } from '../db/index.ts';
import type { ModuleRoutes } from '../http/index.ts';
import type { Clock } from '../shared/index.ts';
import { createOperatorsRepository } from './operators.repository.ts';
import { operatorsRoutes } from './operators.routes.ts';
import { createOperatorsService } from './operators.service.ts';
import type { PasswordCost } from './password-hash.ts';

export function createOperatorsModule(deps: {
  db: Queryable;
  clock: Clock;
  adminToken: string | undefined;
  passwordCost?: PasswordCost;
}) {
  const repository = createOperatorsRepository(deps.db);
  const service = createOperatorsService({ repository, clock: deps.clock, passwordCost: deps.passwordCost });
  const { adminToken } = deps;
  const routes: ModuleRoutes = { admin: adminToken ? [operatorsRoutes({ operators: service, adminToken })] : [] };
  return { service, accounts: { byEmail: repository.byEmail }, routes };
}

export type OperatorsModule = ReturnType<typeof createOperatorsModule>;
/** The reads of operators' accounts other modules make. */
export type OperatorAccounts = OperatorsModule['accounts'];
