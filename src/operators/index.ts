/** What other modules use of the operators module. */
export { generatePassword } from './generated-password.ts';
export { createOperatorsRepository, type OperatorsRepository } from './operators.repository.ts';
export { operatorsRoutes } from './operators.routes.ts';
export { createOperatorsService, type OperatorsService } from './operators.service.ts';
export { hashPassword, passwordMatches } from './password-hash.ts';
