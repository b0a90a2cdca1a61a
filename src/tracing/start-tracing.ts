/**
 * Starts OpenTelemetry tracing: a tracer provider exporting over OTLP/HTTP (protobuf or JSON) in
 * batches, W3C trace context, and the official instrumentations: @fastify/otel (a server span per
 * request, registered as a plugin), `pg` (a client span per statement on PostgreSQL) and undici
 * (a client span per outgoing HTTP request, carrying `traceparent`). What has no instrumentation of
 * its own gets its spans here: PGlite statements, provider calls and webhook deliveries.
 * Loaded only when tracing is configured (index.ts); bundled apart as dist/tracing.js.
 */
import { createRequire } from 'node:module';
import { context, propagation, trace, type Span } from '@opentelemetry/api';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import FastifyOtel from '@fastify/otel';
import type { FastifyRequest } from 'fastify';
import { createRedactingProcessor } from './redaction.ts';
import { createServiceSpans } from './service-spans.ts';
import { tracedDb } from './traced-db.ts';
import type { Tracing } from './tracing.ts';
import type { TracingSettings } from './tracing-settings.ts';

/** The path of a request without its query string: a query can carry what a span must not. */
const pathOf = (url: string): string => url.split('?', 1)[0];

function fastifyInstrumentation() {
  return new FastifyOtel.FastifyOtelInstrumentation({
    // Hook and handler spans would double the spans of every request for little: the request span,
    // with the statements and calls under it, tells where the time went.
    instrumentHooks: false,
    instrumentHandler: false,
    // An exception's message and stack can quote input (a database error quotes values).
    recordExceptions: false,
    // Probes and scrapes, every few seconds from every instance, would outnumber real traces.
    ignorePaths: ({ url }) => url.startsWith('/health/') || url.startsWith('/metrics'),
    requestHook(span: Span, request: FastifyRequest) {
      const route = request.routeOptions.url;
      span.updateName(route ? `${request.method} ${route}` : request.method);
      span.setAttribute('url.path', pathOf(request.url));
    },
  });
}

function exporterOf(settings: TracingSettings) {
  const options = { url: settings.url };
  return settings.protocol === 'http/json' ? new JsonTraceExporter(options) : new ProtobufTraceExporter(options);
}

/**
 * `setTraceparentSource` is the service's own (shared/trace-context.ts), passed in: bundled, this file
 * is dist/tracing.js, which imports nothing of the service's modules.
 */
export async function startTracing(
  settings: TracingSettings,
  setTraceparentSource: (source: (() => string | undefined) | undefined) => void,
  serviceVersion?: string,
): Promise<Tracing> {
  // OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME are read by the environment detector.
  const resource = resourceFromAttributes({
    'service.name': settings.serviceName,
    ...(serviceVersion ? { 'service.version': serviceVersion } : {}),
  }).merge(detectResources({ detectors: [envDetector] }));
  // The sampler (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG) and the batch's schedule
  // (OTEL_BSP_SCHEDULE_DELAY and the other OTEL_BSP_* variables) are read by the SDK.
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [createRedactingProcessor(), new BatchSpanProcessor(exporterOf(settings))],
  });
  provider.register();
  const fastify = fastifyInstrumentation();
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      fastify,
      new PgInstrumentation({
        // Statements outside any request (the webhook worker's polling) would each be a trace.
        requireParentSpan: true,
        enhancedDatabaseReporting: false,
        ignoreConnectSpans: true,
        requestHook: (span) => span.setAttribute('db.system', 'postgresql'),
      }),
      new UndiciInstrumentation({
        requireParentforSpans: true,
        // The URL's path and query can name a partner's secret path or a person: the span keeps
        // the scheme, host and port only (`server.address`, `server.port`).
        startSpanHook: (request) => ({ 'url.full': request.origin, 'url.path': '/', 'url.query': '' }),
      }),
    ],
  });
  // `pg` is loaded from node_modules (kept out of the bundle) and may already have been imported as
  // an ES module, which no require hook sees: requiring it once through the hook patches its
  // shared prototypes, so every pool, earlier or later, is traced.
  const require = createRequire(import.meta.url);
  require('pg');
  setTraceparentSource(() => {
    const carrier: Record<string, string> = {};
    propagation.inject(context.active(), carrier);
    return carrier.traceparent;
  });
  const tracer = provider.getTracer('autofin');
  return {
    fastifyPlugin: () => fastify.plugin(),
    logFields(): Record<string, string> {
      const span = trace.getSpan(context.active());
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { traceId, spanId };
    },
    traceDb: (db) => (db.engine === 'pglite' ? tracedDb(db, tracer) : db),
    ...createServiceSpans(tracer),
    forceFlush: () => provider.forceFlush(),
    async shutdown() {
      setTraceparentSource(undefined);
      unregister();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
