/**
 * Operator roles (docs/lender-api.md): `admin` manages everything; `analyst` only reads and
 * exports leads and lists companies; `officer` does what an analyst does and sets leads' outcomes.
 */
export const ROLES = ['admin', 'analyst', 'officer'] as const;
export type Role = (typeof ROLES)[number];

/** Who is calling the admin API. `ADMIN_TOKEN` is the bootstrap admin, recorded as "admin-token". */
export interface OperatorContext {
  operatorId: string;
  role: Role;
}

export const adminTokenOperator: OperatorContext = Object.freeze({ operatorId: 'admin-token', role: 'admin' });

/** Whether a caller with `role` may use a route open to `allowed` (admin-only when unspecified). */
export function roleAllows(role: Role, allowed: readonly Role[] | undefined): boolean {
  return role === 'admin' || (allowed ?? ['admin']).includes(role);
}
