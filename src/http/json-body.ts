/**
 * JSON bodies: the spec declares no request body as required, so an empty body with a JSON
 * content type is "no body" rather than an error; anything else goes through Fastify's safe parser
 * (which refuses `__proto__` poisoning). Fastify's built-in `text/plain` parser is removed: every
 * route takes JSON (or declares its own media types), so any other content type is a 415.
 */
import type { FastifyInstance } from 'fastify';

export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    parse(request, body as string, done);
  });
}
