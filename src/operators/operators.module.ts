/**
 * The operators module as the composition root uses it: the operators' service, and the lookup of
 * an operator's account by e-mail the console's sign-in reads.
 */
import type { Queryable } from '../db/index.ts';
import type { Clock } from '../shared/index.ts';
import { createOperatorsRepository } from './operators.repository.ts';
import { createOperatorsService } from './operators.service.ts';

export function createOperatorsModule(deps: { db: Queryable; clock: Clock }) {
  const repository = createOperatorsRepository(deps.db);
  return {
    service: createOperatorsService({ repository, clock: deps.clock }),
    accounts: { byEmail: repository.byEmail },
  };
}

export type OperatorsModule = ReturnType<typeof createOperatorsModule>;
/** The reads of operators' accounts other modules make. */
export type OperatorAccounts = OperatorsModule['accounts'];
