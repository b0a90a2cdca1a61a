/**
 * One validation answer lists every failing field of the request: Fastify stops at the first
 * failing part (path, body, query, headers), so the other parts are checked here too, and a route's
 * checks against data (catalogs, dates, cursors) add the fields that passed the schema but fail them.
 */
import type { FastifyRequest } from 'fastify';
import type { FieldError } from './app-error.ts';
import { toFieldErrors, type SchemaError } from './validation-errors.ts';

/** A route's checks against data, run on a body that may not match its schema. */
export type DataChecks = (body: Record<string, unknown>) => FieldError[];

declare module 'fastify' {
  interface FastifyContextConfig {
    dataChecks?: DataChecks;
    /** The same for a query string. */
    queryChecks?: DataChecks;
  }
}

const parts = ['params', 'body', 'querystring', 'headers'] as const;
type Part = (typeof parts)[number];

function inputOf(request: FastifyRequest, part: Part): unknown {
  if (part === 'params') return request.params;
  if (part === 'body') return request.body;
  if (part === 'querystring') return request.query;
  return request.headers;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function fieldErrorsOfRequest(
  request: FastifyRequest,
  failedPart: string,
  failed: readonly SchemaError[],
): FieldError[] {
  const out: FieldError[] = [];
  for (const part of parts) {
    if (part === failedPart) {
      out.push(...toFieldErrors(failed, part));
      continue;
    }
    const validate = request.getValidationFunction(part) as unknown;
    if (typeof validate !== 'function') continue;
    const result = validate(inputOf(request, part)) as { error?: SchemaError[] } | undefined;
    if (result?.error) out.push(...toFieldErrors(result.error, part));
  }
  const config = request.routeOptions?.config;
  for (const [checks, input] of [[config?.dataChecks, request.body], [config?.queryChecks, request.query]] as const) {
    if (!checks || !isRecord(input)) continue;
    const listed = new Set(out.map((e) => e.field));
    out.push(...checks(input).filter((e) => !listed.has(e.field)));
  }
  return out;
}
