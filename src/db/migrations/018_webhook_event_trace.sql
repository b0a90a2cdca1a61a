-- The W3C traceparent of the request that wrote a webhook event, when tracing is on: its deliveries,
-- made later by whichever instance claims them, join that request's trace. Null when not traced.
alter table webhook_events add column trace_parent text;
