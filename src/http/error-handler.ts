/**
 * One handler renders every failure as an ErrorResponse: contract errors, schema validation,
 * Fastify's own errors (bad JSON, size, media type) and crashes, which never leak internals. It only
 * maps an error to its answer: a request's field errors are gathered by validation
 * (request-validation.ts) before they get here.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors } from './app-error.ts';
import { sendError } from './error-response.ts';
import { bodyNotAnObjectCode, bodyTooDeepCode, maxJsonDepth } from './json-body.ts';
import { invalidInputFor, policyOf, type InvalidInputStyle } from './route-policy.ts';
import { toFieldErrors } from './validation-errors.ts';
import type { Clock } from '../shared/index.ts';

function fromFastifyError(error: FastifyError, style: InvalidInputStyle | undefined): AppError | undefined {
  // Reached only from a route registered before request validation: the failed part alone is listed.
  if (error.validation)
    return invalidInputFor(style, toFieldErrors(error.validation, error.validationContext ?? 'body'));
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
    const known =
      error instanceof AppError
        ? error
        : request.is404
          ? unknownRoute(request.url)
          : fromFastifyError(error, policyOf(request).invalidInput);
    if (known) {
      if (known.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return sendError(request, reply, known, clock.now());
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, errors.internal(), clock.now());
  });
}
