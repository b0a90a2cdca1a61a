/**
 * What a route opts into, declared at the route in one typed object: `config: policy({ … })`.
 * Nothing else in a route's config changes what the request pipeline does; each part of the
 * pipeline reads only this object (through `policyOf`):
 *
 * - `roles`: the admin guard (http/admin-guard.ts) and the console's session check let these roles
 *   besides admin call the route; without it the route is admin-only.
 * - `invalidInput`: the error code invalid input gets on this route (the spec gives some operations
 *   their own), used by validation (http/request-validation.ts) and the error handler.
 * - `bodyChecks`, `queryChecks`: the route's checks against data (catalogs, dates, cursors). When the
 *   schema refuses a request, validation runs them too, so one answer lists every failing field. They
 *   are pure: whatever data they need (an in-memory catalog lookup, the clock) is handed to the
 *   route module and closed over.
 * - `consolePublic`: a console page anyone may open (sign-in, assets); every other one needs a session.
 * - `csrfInUpload`: a console multipart form whose route checks the CSRF token itself, a field read
 *   from the upload before the file; every other console POST is checked before validation.
 */
import type { FastifyRequest } from 'fastify';
import { errors, type AppError, type FieldError } from './app-error.ts';
import type { Role } from '../shared/index.ts';

/** How a route reports invalid input: the spec gives some operations their own code. */
export type InvalidInputStyle = 'default' | 'contact' | 'pin';

/**
 * A route's checks against data, run on input that may not match its schema: each looks only at the
 * fields of the type the schema declares and returns the fields that fail.
 */
export type DataChecks = (input: Record<string, unknown>) => FieldError[];

export interface RoutePolicy {
  /** Roles besides admin that may call the route (admin-only when absent). */
  readonly roles?: readonly Role[];
  /** The code of this route's invalid-input answers (`default` when absent). */
  readonly invalidInput?: InvalidInputStyle;
  /** Checks against data of the body, added to the schema's errors. */
  readonly bodyChecks?: DataChecks;
  /** Checks against data of the query string, added to the schema's errors. */
  readonly queryChecks?: DataChecks;
  /** A console page anyone may open; every other console page needs a session. */
  readonly consolePublic?: boolean;
  /** A console upload that checks its CSRF token itself, from a field read before the file. */
  readonly csrfInUpload?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set with `policy()`, read with `policyOf()`. */
    policy?: RoutePolicy;
  }
}

/** A route's config declaring its policy: `{ config: policy({ roles: ['analyst', 'officer'] }) }`. */
export function policy(declared: RoutePolicy): { policy: RoutePolicy } {
  return { policy: declared };
}

const none: RoutePolicy = Object.freeze({});

/** The policy of the request's route (an empty one when the route declares none, or no route matched). */
export function policyOf(request: FastifyRequest): RoutePolicy {
  return request.routeOptions?.config?.policy ?? none;
}

/** The invalid-input answer of a route of this style, listing `fields`. */
export function invalidInputFor(style: InvalidInputStyle | undefined, fields: FieldError[]): AppError {
  if (style === 'contact') return errors.invalidContact(fields);
  if (style === 'pin') return errors.pinRejected('INVALID_REQUEST', fields);
  return errors.invalidInput(fields);
}
