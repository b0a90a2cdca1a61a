/**
 * One validation answer lists every failing field of the request. Fastify stops at the first failing
 * part (path, body, query, headers) and, as every route attaches its validation error instead of
 * failing at once, hands the request on: a preHandler here, ahead of every route's own, checks the other parts,
 * adds the fields that passed the schema but fail the route's checks against data (its policy's
 * `bodyChecks` and `queryChecks`), and fails the request with the route's invalid-input answer.
 * Requests the schema accepts pass untouched: their checks against data run where the route's
 * service runs them, in its own order.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FieldError } from './app-error.ts';
import { invalidInputFor, policyOf } from './route-policy.ts';
import { toFieldErrors, type SchemaError } from './validation-errors.ts';

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

/** Every failing field of a request whose `failedPart` failed its schema with `failed`. */
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
  const { bodyChecks, queryChecks } = policyOf(request);
  for (const [checks, input] of [
    [bodyChecks, request.body],
    [queryChecks, request.query],
  ] as const) {
    if (!checks || !isRecord(input)) continue;
    const listed = new Set(out.map((e) => e.field));
    out.push(...checks(input).filter((e) => !listed.has(e.field)));
  }
  return out;
}

/** Registered before any route: every route registered after it validates this way. */
export function registerRequestValidation(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.attachValidation = true;
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const failed = request.validationError;
    if (!failed) return done();
    const fields = fieldErrorsOfRequest(
      request,
      failed.validationContext ?? 'body',
      failed.validation as SchemaError[],
    );
    done(invalidInputFor(policyOf(request).invalidInput, fields));
  });
}
