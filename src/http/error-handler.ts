/**
 * One handler renders every failure as an ErrorResponse: contract errors, schema validation,
 * Fastify's own errors (bad JSON, size, media type) and crashes, which never leak internals.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors, type FieldError } from './app-error.ts';
import { sendError } from './error-response.ts';
import { bodyNotAnObjectCode, bodyTooDeepCode, maxJsonDepth } from './json-body.ts';
import { fieldErrorsOfRequest } from './field-errors-of-request.ts';
import type { Clock } from '../shared/clock.ts';

/** How a route reports invalid input: the spec gives some operations their own code. */
export type InvalidInputStyle = 'default' | 'contact' | 'pin';

declare module 'fastify' {
  interface FastifyContextConfig {
    invalidInput?: InvalidInputStyle;
  }
}

export function invalidInputFor(style: InvalidInputStyle | undefined, fields: FieldError[]): AppError {
  if (style === 'contact') return errors.invalidContact(fields);
  if (style === 'pin') return errors.pinRejected('INVALID_REQUEST', fields);
  return errors.invalidInput(fields);
}

function fromFastifyError(
  request: FastifyRequest,
  error: FastifyError,
  style: InvalidInputStyle | undefined,
): AppError | undefined {
  if (error.validation) {
    return invalidInputFor(style, fieldErrorsOfRequest(request, error.validationContext ?? 'body', error.validation));
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return invalidInputFor(style, [{ field: 'body', errorDetail: 'is not valid JSON' }]);
    case bodyTooDeepCode:
      // The same code on every route, whatever code the route gives other invalid input.
      return errors.invalidInput([{ field: 'body', errorDetail: `is nested deeper than ${maxJsonDepth} levels` }]);
    case bodyNotAnObjectCode:
      return invalidInputFor(style, [{ field: 'body', errorDetail: 'must be a JSON object' }]);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return errors.unsupportedMediaType();
  }
  if (error.statusCode === 400) return invalidInputFor(style, []);
  return undefined;
}

/**
 * `unknownRoute` answers a request that no route takes but that Fastify refused before its not-found
 * handler ran (a `QUERY` without a content type): the same 404 or 405 as any other method.
 */
export function registerErrorHandler(
  app: FastifyInstance,
  clock: Clock,
  unknownRoute: (url: string) => AppError,
): void {
  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    const style = request.routeOptions?.config?.invalidInput;
    const known = error instanceof AppError
      ? error
      : request.is404 ? unknownRoute(request.url) : fromFastifyError(request, error, style);
    if (known) {
      if (known.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return sendError(request, reply, known, clock.now());
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, errors.internal(), clock.now());
  });
}
