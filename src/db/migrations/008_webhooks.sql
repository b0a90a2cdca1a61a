-- Webhooks: endpoints (a company's, or the lender's when company_id is null), the outbox of lead
-- events written in the same statement as the change, and one delivery per event and endpoint.
create table webhook_endpoints (
  id uuid primary key,
  company_id uuid references companies (id),
  url text not null,
  -- Null: every event type.
  event_types jsonb,
  description text,
  enabled boolean not null default true,
  -- Signing secrets are stored encrypted (src/shared/field-encryption.ts).
  secret_enc text not null,
  previous_secret_enc text,
  previous_secret_until timestamptz,
  -- Since when every attempt to this endpoint failed; null after a success.
  failing_since timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index webhook_endpoints_company_idx on webhook_endpoints (company_id, created_at, id);

-- The outbox: thin events with no personal data; lead_id is null for a test event.
create table webhook_events (
  id uuid primary key,
  type text not null,
  company_id uuid,
  lead_id uuid,
  occurred_at timestamptz not null,
  data jsonb not null
);

create table webhook_deliveries (
  id uuid primary key,
  endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
  event_id uuid not null references webhook_events (id),
  status text not null default 'pending',
  -- [{at, statusCode, durationMs, error}], one entry per attempt.
  attempts jsonb not null default '[]',
  next_attempt_at timestamptz,
  lease_until timestamptz,
  created_at timestamptz not null
);
-- The workers' queue: only pending deliveries are indexed.
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at desc, id desc);
