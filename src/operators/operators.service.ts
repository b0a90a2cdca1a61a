/**
 * Operators of the admin API: create (the key shown once), list, delete, and recognising a key.
 * Keys are generated 256-bit strings, so a SHA-256 hash stores them (as consumer secrets are);
 * passwords are hashed with scrypt outside any transaction.
 */
import { errors } from '../http/index.ts';
import { hashSecret, type Clock, newId, randomToken, type OperatorContext, type Role } from '../shared/index.ts';
import { hashPassword, type PasswordCost } from './password-hash.ts';
import type { OperatorRow, OperatorsRepository } from './operators.repository.ts';

export const operatorKeyPrefix = 'op_';

export interface NewOperator {
  name: string;
  role: Role;
  email?: string;
  password?: string;
}

const view = (row: OperatorRow) => ({
  id: row.id,
  name: row.name,
  role: row.role,
  email: row.email,
  createdAt: row.created_at.toISOString(),
});

export function createOperatorsService(deps: {
  repository: OperatorsRepository;
  clock: Clock;
  /** scrypt's cost for new passwords; the default's unless given. */
  passwordCost?: PasswordCost;
}) {
  return {
    async create(input: NewOperator) {
      const fieldErrors = [];
      // A name of spaces names nobody in the console's lists and the audit.
      if (input.name.trim() === '') fieldErrors.push({ field: 'name', errorDetail: 'must not be blank' });
      // Sign-in is by e-mail: a password without one could never be used.
      if (input.password !== undefined && input.email === undefined) {
        fieldErrors.push({ field: 'password', errorDetail: 'requires email' });
      }
      if (fieldErrors.length > 0) throw errors.invalidInput(fieldErrors);
      const key = `${operatorKeyPrefix}${randomToken(32)}`;
      const passwordHash = input.password === undefined ? null : await hashPassword(input.password, deps.passwordCost);
      const row: OperatorRow = {
        id: newId(),
        name: input.name.trim(),
        role: input.role,
        email: input.email ?? null,
        created_at: deps.clock.now(),
      };
      const inserted = await deps.repository.insert({ ...row, key_hash: hashSecret(key), password_hash: passwordHash });
      if (!inserted)
        throw errors.invalidInput([{ field: 'email', errorDetail: 'is already used by another operator' }]);
      return { ...view(row), key };
    },

    async list() {
      return { items: (await deps.repository.list()).map(view) };
    },

    async remove(id: string): Promise<void> {
      if (!(await deps.repository.markDeleted(id, deps.clock.now()))) throw errors.operatorNotFound();
    },

    /** The operator a key belongs to; undefined for anything else (unknown, deleted, not a key). */
    async authenticate(key: string): Promise<OperatorContext | undefined> {
      if (!key.startsWith(operatorKeyPrefix) || key.length > 128) return undefined;
      const row = await deps.repository.byKeyHash(hashSecret(key));
      return row && { operatorId: row.id, role: row.role };
    },
  };
}

export type OperatorsService = ReturnType<typeof createOperatorsService>;
