/**
 * JSON bodies: the spec declares no request body as required, so an empty body with a JSON
 * content type is "no body" rather than an error; anything else goes through Fastify's safe parser
 * (which refuses `__proto__` poisoning).
 */
import type { FastifyInstance } from 'fastify';

export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    parse(request, body as string, done);
  });
}
