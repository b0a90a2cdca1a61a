/**
 * JSON bodies: the spec declares no request body as required, so an empty body with a JSON
 * content type is "no body" rather than an error; anything else goes through Fastify's safe parser
 * (which refuses `__proto__` poisoning). Fastify's built-in `text/plain` parser is removed: every
 * route takes JSON (or declares its own media types), so any other content type is a 415.
 */
import type { FastifyError, FastifyInstance } from 'fastify';

export const bodyNotAnObjectCode = 'AF_BODY_NOT_AN_OBJECT';

function notAnObject(): FastifyError {
  return Object.assign(new Error('the body must be a JSON object'), { code: bodyNotAnObjectCode, statusCode: 400, name: 'FastifyError' });
}

export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    parse(request, body as string, (error, value) => {
      if (error) return done(error);
      // Every request body of this API is an object: `null`, `[]`, `"x"` or `1` is refused here.
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return done(notAnObject());
      done(null, value);
    });
  });
}
