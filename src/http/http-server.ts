/**
 * The HTTP/1 server the app listens on: created as Fastify creates its own (the same timeouts and
 * limits from the app's options), except that each request is first offered to a fast path. The
 * fast path answers it or leaves it, untouched, to Fastify's handler.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';

/** Answers the request and says true, or says false having written nothing. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

export function serverWithFastPath(fastPath: FastPath, warn: (error: unknown) => void): FastifyServerFactory {
  return (handler, options) => {
    const server = http.createServer((options.http ?? {}) as http.ServerOptions, (req, res) => {
      try {
        if (fastPath(req, res)) return;
      } catch (error) {
        // Fastify then answers the request on its own path (and logs its failure if it fails too).
        warn(error);
        if (res.headersSent) return void res.destroy();
      }
      handler(req, res);
    });
    server.keepAliveTimeout = options.keepAliveTimeout as number;
    server.requestTimeout = options.requestTimeout as number;
    server.setTimeout(options.connectionTimeout as number);
    if ((options.maxRequestsPerSocket as number) > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket as number;
    return server;
  };
}
