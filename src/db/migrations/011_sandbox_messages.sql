-- Sandbox only: a copy of every PIN message handed to a provider, so a partner integrating against a
-- hosted sandbox reads its PINs through the API (docs/sandbox.md). The recipient is kept masked; the
-- body (it carries the PIN) is encrypted like every other personal field.
create table sandbox_messages (
  id uuid primary key,
  seq bigint generated always as identity,
  lead_id uuid not null references leads (id) on delete cascade,
  channel text not null,
  to_masked text not null,
  body_enc text not null,
  sent_at timestamptz not null
);
create index sandbox_messages_lead_idx on sandbox_messages (lead_id, sent_at desc, seq desc);
