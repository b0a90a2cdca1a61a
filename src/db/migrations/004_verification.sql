-- The pending PIN of a lead (one at a time; a new send replaces it), stored only as a keyed hash.
create table lead_pins (
  lead_id uuid primary key references leads (id),
  pin_hash text not null,
  channel text not null,
  sent_at timestamptz not null,
  expires_at timestamptz not null,
  failed_attempts integer not null default 0,
  verified_at timestamptz
);

-- Every send handed to a provider, for the limit of sends per lead in any 10 minutes.
create table pin_sends (
  id uuid primary key,
  lead_id uuid not null references leads (id),
  at timestamptz not null
);
create index pin_sends_lead_at_idx on pin_sends (lead_id, at);

-- The credit bureau report of a verified lead, encrypted; never returned to partners.
create table bureau_reports (
  lead_id uuid primary key references leads (id),
  report_enc text not null,
  provider text not null,
  received_at timestamptz not null
);
