/**
 * The id of a request: the caller's `X-Request-Id` when it is a safe token (so a partner can match
 * our logs to theirs), a new UUID otherwise. Answered in the `X-Request-Id` header of every answer.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const requestIdPattern = /^[A-Za-z0-9._-]{1,64}$/;

export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
}
