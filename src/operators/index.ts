/** What other modules use of the operators module. */
export { generatePassword } from './generated-password.ts';
export type { OperatorsService } from './operators.service.ts';
export { createOperatorsModule, type OperatorAccounts } from './operators.module.ts';
export { hashPassword, passwordMatches, type PasswordCost } from './password-hash.ts';
