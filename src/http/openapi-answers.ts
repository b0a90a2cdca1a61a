/**
 * What a route declares about its answers in the OpenAPI document: a description, the headers sent
 * and, for errors, an example of each code the route really answers (built with the constructors of
 * app-error.ts, so a code in the document is the code on the wire). Routes build their `response`
 * map with these functions; openapi.ts writes the declarations into the document.
 */
import { Type, type TSchema } from 'typebox';
import { AppError, errors } from './app-error.ts';
import { ErrorResponse } from './error-response.ts';

const integer = { type: 'integer', minimum: 0 } as const;
const text = { type: 'string' } as const;

/** Every response header the document declares. */
export const responseHeaders = {
  'X-Request-Id': {
    description:
      'The request id: the caller’s `X-Request-Id` when it is 1–64 characters ' +
      'of `A-Za-z0-9._-`, otherwise a new one. Quote it to support.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests the company may make per minute (all routes and instances together).',
    schema: integer,
  },
  'X-RateLimit-Remaining': { description: 'Requests the company has left in the current minute.', schema: integer },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
  Location: { description: 'Path of what was created (the lead, the document).', schema: text },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
  ETag: { description: 'Version of the catalog answer; send it back in `If-None-Match` to get a 304.', schema: text },
  'Cache-Control': {
    description: 'How long the answer may be cached: `no-store` on every answer but the catalogs’.',
    schema: text,
  },
  Allow: { description: 'The methods this path answers.', schema: text },
  'WWW-Authenticate': {
    description: 'RFC 6750 challenge, with `error="invalid_token"` when a token was sent but refused.',
    schema: text,
  },
} as const;

export type HeaderName = keyof typeof responseHeaders;

export interface ExampleDoc {
  summary: string;
  value: unknown;
}

export interface AnswerDoc {
  description: string;
  /** Headers sent with every answer of this status. */
  headers: HeaderName[];
  /** Headers sent with some answers of this status only. */
  optionalHeaders?: HeaderName[];
  examples?: Record<string, ExampleDoc>;
}

declare module 'fastify' {
  interface FastifySchema {
    /** The route takes no body as well as one (the document then says the body is optional). */
    'x-body-optional'?: boolean;
    /** The form of a multipart body the route reads itself; the document describes it as the request body. */
    'x-multipart-body'?: object;
  }
}

const answerDocs = new WeakMap<object, AnswerDoc>();

/** A copy of `schema` (as Fastify serializes it) that carries its answer's documentation. */
export function documented<T extends TSchema>(schema: T, doc: AnswerDoc): T {
  const copy = { ...schema };
  answerDocs.set(copy, doc);
  return copy;
}

export function answerDocOf(part: unknown): AnswerDoc | undefined {
  return typeof part === 'object' && part !== null ? answerDocs.get(part) : undefined;
}

/** Who may call a route, which decides its 401, 429 and the headers of its answers. */
export type Access = 'partner' | 'admin' | 'token' | 'public';

/** Headers of every answer of an admitted partner request (the rate limit was counted). */
const admittedPartner: HeaderName[] = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining'];

function headersOf(access: Access): HeaderName[] {
  return access === 'partner' ? admittedPartner : ['X-Request-Id'];
}

/** A success answer: its schema, what it means and the headers it carries beyond the usual ones. */
export function ok<T extends TSchema>(
  access: Access,
  schema: T,
  description: string,
  headers: HeaderName[] = [],
  optionalHeaders: HeaderName[] = [],
): T {
  return documented(schema, { description, headers: [...headersOf(access), ...headers], optionalHeaders });
}

/** An answer with no body (a 204, the spec's 200s with no body, a 304). */
export function empty(access: Access, description: string, headers: HeaderName[] = []) {
  return ok(access, Type.Null({ description }), description, headers);
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 412 | 413 | 415 | 429 | 500 | 503;

const statusDescriptions: Record<ErrorStatus, string> = {
  400: 'Invalid request: `additionalData.errors` lists every invalid field.',
  401: 'Missing, malformed, expired or revoked token.',
  403: 'The operator’s role does not allow this route.',
  404: 'Not found.',
  405: 'The path exists, but not with this method: `Allow` lists the methods it answers.',
  409: 'Conflict with the current state.',
  410: 'Gone: erased with the lead’s personal data.',
  412: 'A third-party provider failed: `6XXYYY` names the provider and the failure; nothing was changed.',
  413: 'The body is over the size limit.',
  415: 'The body’s content type is not one the route takes.',
  429: 'Too many requests: wait `Retry-After` seconds.',
  500: 'Unexpected failure; no details leave the server. Quote `requestId` to support.',
  503: 'The service cannot serve now (its database does not answer).',
};

/** One example error: the constructor's code and message, and what it means on this route. */
export interface ErrorCase {
  error: AppError;
  summary: string;
}

export const errorCase = (summary: string, error: AppError): ErrorCase => ({ summary, error });

function exampleOf(error: AppError): unknown {
  return {
    timestamp: '2026-01-15T12:00:00.000Z',
    message: error.message,
    code: error.code,
    requestId: 'b7e3c1d2-5f4a-4e6b-9c8d-1a2b3c4d5e6f',
    additionalData: error.additionalData,
  };
}

export interface ErrorAnswersOptions {
  access: Access;
  /** The route reads a body: it can answer 413 and 415. */
  body?: boolean;
  /** The route's own errors, by status, besides those its access and body imply. */
  cases?: Partial<Record<ErrorStatus, ErrorCase[]>>;
  /** Description of a status on this route, when the generic one says too little. */
  descriptions?: Partial<Record<ErrorStatus, string>>;
}

const tokenRefused = [
  errorCase('No token', errors.missingToken()),
  errorCase(
    'A token that is malformed, expired, revoked or of another environment',
    errors.unauthorized('the token has expired'),
  ),
];

/** The error answers of a route: those every route of its kind can give, plus its own. */
export function errorAnswers(options: ErrorAnswersOptions): Partial<Record<ErrorStatus, typeof ErrorResponse>> {
  const { access } = options;
  const cases: Partial<Record<ErrorStatus, ErrorCase[]>> = {};
  const add = (status: ErrorStatus, ...more: ErrorCase[]) => (cases[status] = [...(cases[status] ?? []), ...more]);
  for (const [status, list] of Object.entries(options.cases ?? {})) add(Number(status) as ErrorStatus, ...(list ?? []));
  if (access === 'partner' || access === 'admin') add(401, ...tokenRefused);
  // An analyst's key on a route of the admin role (docs/lender-api.md).
  if (access === 'admin') add(403, errorCase('An analyst on a route of the admin role', errors.forbidden()));
  if (access === 'token')
    add(
      401,
      errorCase(
        'Unknown consumer key, wrong secret or revoked credential',
        errors.unauthorized('invalid client credentials'),
      ),
    );
  add(405, errorCase('Another method on this path', errors.methodNotAllowed(['GET'])));
  if (options.body) {
    add(413, errorCase('Body over the size limit', errors.payloadTooLarge()));
    add(415, errorCase('Content type other than those the route takes', errors.unsupportedMediaType()));
  }
  if (access === 'partner')
    add(429, errorCase('The company’s request limit per minute', errors.tooManyRequests('COMPANY_REQUEST_LIMIT', 12)));
  if (access === 'token')
    add(
      429,
      errorCase(
        'Too many token requests for this consumer key or client address',
        errors.tooManyRequests('TOKEN_REQUEST_LIMIT', 12),
      ),
    );
  add(500, errorCase('Unexpected failure', errors.internal()));

  const answers: Partial<Record<ErrorStatus, typeof ErrorResponse>> = {};
  for (const [key, list] of Object.entries(cases)) {
    const status = Number(key) as ErrorStatus;
    answers[status] = documented(ErrorResponse, {
      description: options.descriptions?.[status] ?? statusDescriptions[status],
      headers: errorHeaders(access, status),
      // A malformed URL is refused before the partner's rate limit is counted.
      optionalHeaders: access === 'partner' && status === 400 ? ['X-RateLimit-Limit', 'X-RateLimit-Remaining'] : [],
      examples: examplesOf(list ?? []),
    });
  }
  return answers;
}

function examplesOf(list: ErrorCase[]): Record<string, ExampleDoc> {
  const examples: Record<string, ExampleDoc> = {};
  for (const { summary, error } of list) {
    const base = `${error.code}${exampleSuffix(error)}`;
    let name = base;
    for (let n = 2; name in examples; n++) name = `${base}-${n}`;
    examples[name] = { summary, value: exampleOf(error) };
  }
  return examples;
}

/** Examples of one code are told apart by their reason or first field. */
function exampleSuffix(error: AppError): string {
  const data = error.additionalData as { reason?: string; errors?: { field: string }[] } | null;
  const detail = data?.reason ?? data?.errors?.[0]?.field;
  return detail ? `-${detail.replace(/[^A-Za-z0-9_.-]/g, '_')}` : '';
}

function errorHeaders(access: Access, status: ErrorStatus): HeaderName[] {
  const special: HeaderName[] =
    status === 401 ? ['WWW-Authenticate'] : status === 405 ? ['Allow'] : status === 429 ? ['Retry-After'] : [];
  // A refused token and an unknown method are answered before the rate limit is counted.
  const admitted = access === 'partner' && status !== 400 && status !== 401 && status !== 405;
  return [...(admitted ? admittedPartner : ['X-Request-Id' as const]), ...special];
}
