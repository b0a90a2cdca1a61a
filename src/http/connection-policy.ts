/**
 * When a connection must not be kept: an answer sent while the client is still sending its body
 * (an early 401, 413 or 429 to a large upload) closes the connection instead of reading the rest,
 * and while the process stops (`draining`) every request is answered 503 / 5030 and its connection
 * closed, so keep-alive clients move to another instance instead of meeting a reset.
 *
 * Also the server's time limits for slow clients (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS), given
 * to Fastify as options.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/index.ts';
import { errors } from './app-error.ts';

export interface ConnectionPolicyOptions {
  /** True once the process has begun to stop. */
  draining: () => boolean;
}

export function registerConnectionPolicy(app: FastifyInstance, { draining }: ConnectionPolicyOptions): void {
  app.addHook('onRequest', (_request, _reply, done) => {
    done(draining() ? errors.unavailable() : undefined);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (draining() || bodyStillArriving(request.raw)) reply.header('connection', 'close');
    done(null, payload);
  });
}

/**
 * A request with a body Node has not yet parsed to its end (`complete` is undefined for injected
 * requests). A request without a body is complete once its headers are read, although Node marks
 * it so only after the handlers of its headers have run.
 */
function bodyStillArriving(raw: IncomingMessage): boolean {
  if (raw.complete !== false) return false;
  return raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
}

/** Fastify's server options for slow clients: Node checks its timers every `connectionsCheckingInterval`. */
export function slowClientOptions(config: Pick<Config, 'requestTimeoutMs' | 'headersTimeoutMs'>) {
  const connectionsCheckingInterval = Math.min(1000, Math.max(50, Math.floor(config.headersTimeoutMs / 4)));
  return {
    requestTimeout: config.requestTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval,
    },
  };
}
