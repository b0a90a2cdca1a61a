/**
 * Spans for the service's own outgoing calls: one per provider call (the SMS, e-mail and bureau
 * adapters, through providers/outbound.ts) and one per webhook delivery attempt. An HTTP call made
 * inside either gets the undici instrumentation's span as a child, and the `traceparent` it sends
 * names that trace. Attributes are the provider's kind, the outcome and, for a webhook, the
 * receiver's host only.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { ProviderTracer } from '../providers/index.ts';
import type { DeliveryTracer } from '../webhooks/index.ts';

export function createServiceSpans(tracer: Tracer): { provider: ProviderTracer; delivery: DeliveryTracer } {
  const provider: ProviderTracer = (kind, call) =>
    tracer.startActiveSpan(
      `${kind} call`,
      { kind: SpanKind.CLIENT, attributes: { 'autofin.provider': kind } },
      async (span) => {
        try {
          const result = await call();
          span.setAttribute('autofin.provider.outcome', result.ok ? 'ok' : result.kind);
          if (!result.ok) span.setStatus({ code: SpanStatusCode.ERROR });
          return result;
        } finally {
          span.end();
        }
      },
    );

  const delivery: DeliveryTracer = (target, send) => {
    // The trace of the request that wrote the event, stored with it; a new trace when there was none.
    const parent = target.traceparent
      ? propagation.extract(ROOT_CONTEXT, { traceparent: target.traceparent })
      : ROOT_CONTEXT;
    const url = new URL(target.url);
    const attributes = {
      'server.address': url.hostname,
      'autofin.webhook.event_type': target.eventType,
    };
    return context.with(parent, () =>
      tracer.startActiveSpan('webhook deliver', { kind: SpanKind.CLIENT, attributes }, async (span) => {
        try {
          const outcome = await send();
          if (outcome.statusCode !== null) span.setAttribute('http.response.status_code', outcome.statusCode);
          if (outcome.statusCode === null || outcome.statusCode >= 300) span.setStatus({ code: SpanStatusCode.ERROR });
          return outcome;
        } finally {
          span.end();
        }
      }),
    );
  };
  return { provider, delivery };
}
