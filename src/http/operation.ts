/**
 * The prose of a module's operations in the OpenAPI document. Each module with routes keeps a table
 * (`<module>.operations.ts`) keyed by operationId: summary, description and the route's own error
 * cases. Its route files spread `operation(table, id)` into a route's schema and hand the entry's
 * `errorCases` and `errorDescriptions` to `errorAnswers` (openapi-answers.ts).
 */
import type { ErrorCase, ErrorStatus } from './openapi-answers.ts';

/** A route's own error examples by status: what `errorAnswers` takes as `cases`. */
export type ErrorCases = Partial<Record<ErrorStatus, ErrorCase[]>>;

/** What the document says about one operation. */
export interface OperationDoc {
  summary: string;
  description?: string;
  /** The route's own error examples by status (`errorAnswers`' `cases`). */
  errorCases?: ErrorCases;
  /** A status's description on this route, when the generic one says too little (`errorAnswers`' `descriptions`). */
  errorDescriptions?: Partial<Record<ErrorStatus, string>>;
}

/** Declares a module's table; its keys are kept, so `operation()` takes only the ids it holds. */
export const operationTable = <const T extends Record<string, OperationDoc>>(table: T): T => table;

/** The schema fields of an operation, as Fastify's route schema takes them. */
export interface OperationFields {
  operationId: string;
  summary: string;
  description?: string;
}

/**
 * The schema fields of operation `id` of `table`. `operationId` overrides the id written to the
 * document, for routes registered under more than one API (the webhooks' partner and admin paths).
 */
export function operation<T extends Record<string, OperationDoc>>(
  table: T,
  id: keyof T & string,
  operationId: string = id,
): OperationFields {
  const { summary, description } = table[id];
  return description === undefined ? { operationId, summary } : { operationId, summary, description };
}
