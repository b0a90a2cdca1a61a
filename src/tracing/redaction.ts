/**
 * The last guard against personal data in a span, whatever instrumentation made it: an error's
 * message (a database error quotes the values it refused, a provider error an address) never
 * leaves the process. The status keeps its code; exception events keep their type only.
 */
import type { Span, SpanProcessor } from '@opentelemetry/sdk-trace-node';

const keptExceptionAttributes = new Set(['exception.type']);

export function createRedactingProcessor(): SpanProcessor {
  return {
    onStart() {},
    onEnding(span: Span) {
      if (span.status.message) span.setStatus({ code: span.status.code });
      for (const event of span.events) {
        if (!event.attributes) continue;
        for (const key of Object.keys(event.attributes)) {
          if (!keptExceptionAttributes.has(key)) delete (event.attributes as Record<string, unknown>)[key];
        }
      }
    },
    onEnd() {},
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}
