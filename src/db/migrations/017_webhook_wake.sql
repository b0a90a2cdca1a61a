-- Applied before migrations were linted (.squawk.toml); kept as written.
-- squawk-ignore-file adding-field-with-default, require-concurrent-index-creation
-- Deliveries go out as soon as they are written, and in order per lead and endpoint.
-- `seq` orders the deliveries of one lead (its writers hold the lead's row lock, so a later change
-- always draws a higher number); `lead_id` is copied from the event so the worker can find, by
-- index, an earlier pending delivery of the same lead to the same endpoint.
alter table webhook_deliveries add column seq bigint generated always as identity;
alter table webhook_deliveries add column lead_id uuid;
update webhook_deliveries d set lead_id = v.lead_id from webhook_events v where v.id = d.event_id;
create index webhook_deliveries_lead_order_idx on webhook_deliveries (endpoint_id, lead_id, seq)
  where status = 'pending';
create index webhook_deliveries_endpoint_due_idx on webhook_deliveries (endpoint_id, next_attempt_at, seq)
  where status = 'pending';

-- Every new delivery takes its lead from its event and wakes the delivery workers: the notification
-- reaches every listening instance when the writing transaction commits (never for a rollback),
-- and identical notifications of one transaction are sent once.
create function webhook_delivery_written() returns trigger language plpgsql as $$
begin
  if new.lead_id is null then
    new.lead_id := (select v.lead_id from webhook_events v where v.id = new.event_id);
  end if;
  perform pg_notify('autofin_webhooks', '');
  return new;
end
$$;
create trigger webhook_delivery_written before insert on webhook_deliveries
  for each row execute function webhook_delivery_written();
