/**
 * Errors raised before a route runs, which never reach the app's error handler: Fastify's own URL
 * errors (`frameworkErrors`) and what Node's HTTP parser refuses (`clientErrorHandler`). Both answer
 * an ErrorResponse like every other error; the parser's answer closes the connection, since Node
 * destroys the socket after it.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors } from './app-error.ts';
import { sendError } from './error-response.ts';
import type { Clock } from '../shared/index.ts';

// Taken from the module object, not imported: an ES import of node:http reads every export of the module,
// and on Node 24 three of them (the WebSocket classes) load Node's own HTTP client to do so, about
// 25 ms of every start (docs/performance.md, "Where a start's time and an instance's memory go").
const { STATUS_CODES } = process.getBuiltinModule('node:http');

export function frameworkErrorOf(error: FastifyError): AppError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return errors.invalidInput([{ field: 'path', errorDetail: 'is not a valid percent-encoded URL path' }]);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return errors.uriTooLong();
    default:
      return error.statusCode !== undefined && error.statusCode < 500 ? errors.invalidInput() : errors.internal();
  }
}

/** Fastify's `frameworkErrors` option. */
export function frameworkErrorHandler(clock: Clock) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const known = frameworkErrorOf(error);
    if (known.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    void sendError(request, reply, known, clock.now());
  };
}

/** The parser's failures, as `AppError`s: a header block over the limit, a slow request, or anything malformed. */
export function clientErrorOf(error: NodeJS.ErrnoException): AppError {
  if (error.code === 'HPE_HEADER_OVERFLOW') return errors.headersTooLarge();
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return errors.requestTimeout();
  return errors.invalidInput([{ field: 'request', errorDetail: 'is not a well-formed HTTP request' }]);
}

/** The whole HTTP answer written on the socket, with `Connection: close`. */
export function clientErrorAnswer(error: AppError, now: Date, requestId = randomUUID()): string {
  const body = JSON.stringify({
    timestamp: now.toISOString(),
    message: error.message,
    code: error.code,
    requestId,
    additionalData: error.additionalData,
  });
  return [
    `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Fastify's `clientErrorHandler` option. */
export function clientErrorHandler(clock: Clock) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    let answered = false;
    const answer = () => {
      if (answered) return;
      answered = true;
      if (!socket.writable) return void socket.destroy();
      // Destroyed once the answer is flushed, or after a second for a client that never reads it.
      const timer = setTimeout(() => socket.destroy(), 1000).unref();
      socket.end(clientErrorAnswer(clientErrorOf(error), clock.now()), () => {
        clearTimeout(timer);
        socket.destroy();
      });
    };
    // A pipelining client may still be owed the answer of an earlier request on this connection:
    // the error follows it rather than cutting into it.
    const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    // A request still arriving with nothing answered yet (a slow body past REQUEST_TIMEOUT_MS) is
    // the one in error: it is answered now, not after an answer that will never come.
    if (pending && !pending.headersSent && !pending.req.complete) return answer();
    if (pending && !pending.writableFinished) {
      pending.once('finish', answer);
      pending.once('close', () => (pending.writableFinished ? answer() : socket.destroy()));
      return;
    }
    answer();
  };
}
