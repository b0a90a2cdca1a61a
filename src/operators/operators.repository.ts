/** SQL for operators. Every method takes an optional transaction. */
import type { Queryable } from '../db/index.ts';
import type { Role } from '../shared/index.ts';

export interface OperatorRow {
  id: string;
  name: string;
  role: Role;
  email: string | null;
  created_at: Date;
}

/** An operator with the password hash sign-in checks. */
export type SignInRow = OperatorRow & { password_hash: string | null };

export function createOperatorsRepository(db: Queryable) {
  return {
    /** False when an operator not deleted already has that e-mail (compared case-insensitively). */
    async insert(
      operator: OperatorRow & { key_hash: string; password_hash: string | null },
      tx: Queryable = db,
    ): Promise<boolean> {
      const { rowCount } = await tx.query(
        `insert into operators (id, name, role, email, key_hash, password_hash, created_at)
         select $1, $2, $3, $4, $5, $6, $7
         where $4::text is null
            or not exists (select 1 from operators where lower(email) = lower($4::text) and deleted_at is null)`,
        [
          operator.id,
          operator.name,
          operator.role,
          operator.email,
          operator.key_hash,
          operator.password_hash,
          operator.created_at,
        ],
      );
      return rowCount === 1;
    },

    async list(tx: Queryable = db): Promise<OperatorRow[]> {
      const { rows } = await tx.query<OperatorRow>(
        'select id, name, role, email, created_at from operators where deleted_at is null order by created_at, id',
      );
      return rows;
    },

    /** The operator holding this key hash, unless deleted. */
    async byKeyHash(keyHash: string, tx: Queryable = db): Promise<OperatorRow | undefined> {
      const { rows } = await tx.query<OperatorRow>(
        'select id, name, role, email, created_at from operators where key_hash = $1 and deleted_at is null',
        [keyHash],
      );
      return rows[0];
    },

    /** The live operator who signs in with this e-mail (compared case-insensitively), with the password hash. */
    async byEmail(email: string, tx: Queryable = db): Promise<SignInRow | undefined> {
      const { rows } = await tx.query<SignInRow>(
        `select id, name, role, email, created_at, password_hash from operators
         where lower(email) = lower($1) and deleted_at is null`,
        [email],
      );
      return rows[0];
    },

    /** False when no operator with that id is left to delete. */
    async markDeleted(id: string, at: Date, tx: Queryable = db): Promise<boolean> {
      const { rowCount } = await tx.query('update operators set deleted_at = $2 where id = $1 and deleted_at is null', [
        id,
        at,
      ]);
      return rowCount === 1;
    },
  };
}

export type OperatorsRepository = ReturnType<typeof createOperatorsRepository>;
