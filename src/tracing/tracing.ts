/** What the process gets from tracing once it is started (start-tracing.ts). */
import type { FastifyPluginCallback } from 'fastify';
import type { Db } from '../db/index.ts';
import type { ProviderTracer } from '../providers/index.ts';
import type { DeliveryTracer } from '../webhooks/index.ts';

export interface Tracing {
  /** Registered first on the app: a server span per request, `traceparent` continued. */
  fastifyPlugin(): FastifyPluginCallback;
  /** `traceId` and `spanId` of the active span, for every log line (pino's mixin); empty outside a trace. */
  logFields(): Record<string, string>;
  /** A client span per statement. PGlite only: PostgreSQL's are the `pg` instrumentation's. */
  traceDb(db: Db): Db;
  /** A client span per SMS, e-mail and bureau call. */
  provider: ProviderTracer;
  /** A client span per webhook delivery attempt, in the trace of the change that caused it. */
  delivery: DeliveryTracer;
  /** Exports every ended span now (tests). */
  forceFlush(): Promise<void>;
  /** Exports what is left and stops (a graceful stop). */
  shutdown(): Promise<void>;
}
