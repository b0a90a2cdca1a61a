-- autofin:no-transaction
-- squawk-ignore-file ban-concurrent-index-creation-in-transaction
-- The webhook tables are pruned on a schedule (docs/operations.md, "Webhooks"): finished deliveries by
-- age, then events by age once no delivery refers to them. Built without blocking writes on PostgreSQL
-- (src/db/migrate.ts): these tables are among the largest.
create index concurrently if not exists webhook_deliveries_finished_idx on webhook_deliveries (created_at)
  where status <> 'pending';
create index concurrently if not exists webhook_deliveries_event_idx on webhook_deliveries (event_id);
create index concurrently if not exists webhook_events_occurred_idx on webhook_events (occurred_at);
