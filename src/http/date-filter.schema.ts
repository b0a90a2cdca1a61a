/**
 * A list's `createdFrom` / `createdTo` filter: an ISO 8601 date (`2026-01-15`, midnight UTC) or an RFC
 * 3339 date-time, declared with its formats so generated clients send one of them.
 */
import { Type } from 'typebox';

export const dateFilter = (description: string) =>
  Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time', maxLength: 40 })], { description });
