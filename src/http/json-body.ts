/**
 * JSON bodies: the spec declares no request body as required, so an empty body with a JSON
 * content type is "no body" rather than an error; anything else goes through Fastify's safe parser
 * (which refuses `__proto__` poisoning). Fastify's built-in `text/plain` parser is removed: every
 * route takes JSON (or declares its own media types), so any other content type is a 415.
 *
 * A body nested deeper than `maxJsonDepth` is refused before it is parsed: parsing, validating,
 * logging and serializing all walk a value recursively, and a small body nested thousands of levels
 * deep would exhaust the stack in one of them. The check is one loop over the text, no recursion.
 */
import type { FastifyError, FastifyInstance } from 'fastify';

export const bodyNotAnObjectCode = 'AF_BODY_NOT_AN_OBJECT';
export const bodyTooDeepCode = 'AF_BODY_TOO_DEEP';

/** Objects and arrays nested deeper than this are refused (docs/api.md, "Errors"). */
export const maxJsonDepth = 32;

/** Whether the JSON text opens more than `max` objects or arrays inside each other (strings skipped). */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

function tooDeep(): FastifyError {
  return Object.assign(new Error(`the body is nested deeper than ${maxJsonDepth} levels`), {
    code: bodyTooDeepCode,
    statusCode: 400,
    name: 'FastifyError',
  });
}

function notAnObject(): FastifyError {
  return Object.assign(new Error('the body must be a JSON object'), {
    code: bodyNotAnObjectCode,
    statusCode: 400,
    name: 'FastifyError',
  });
}

export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    if (jsonDepthExceeds(body as string, maxJsonDepth)) return done(tooDeep());
    parse(request, body as string, (error, value) => {
      if (error) return done(error);
      // Every request body of this API is an object: `null`, `[]`, `"x"` or `1` is refused here.
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return done(notAnObject());
      done(null, value);
    });
  });
}
