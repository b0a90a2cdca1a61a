/**
 * The W3C `traceparent` of the trace the current code runs in, for what carries a trace beyond the
 * request (a webhook event written now, delivered later by any instance). Undefined unless tracing
 * is on: src/tracing sets the source when it starts, so without tracing nothing is loaded for it.
 */
let source: () => string | undefined = () => undefined;

export const currentTraceparent = (): string | undefined => source();

export function setTraceparentSource(next: (() => string | undefined) | undefined): void {
  source = next ?? (() => undefined);
}
