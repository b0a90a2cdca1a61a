-- Companies (the lender's partners), their affiliates (users on whose behalf leads are created)
-- and API credentials. Consumer secrets are stored only as hashes.
create table companies (
  id uuid primary key,
  name text not null,
  created_at timestamptz not null default now()
);

create table affiliates (
  user_id uuid primary key,
  company_id uuid not null references companies (id),
  user_type text not null,
  created_at timestamptz not null default now()
);
create index affiliates_company_idx on affiliates (company_id);

create table credentials (
  consumer_key text primary key,
  company_id uuid not null references companies (id),
  secret_hash text not null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index credentials_company_idx on credentials (company_id);

-- One-off facts about this database, e.g. that the sandbox demo data was seeded.
create table app_state (
  key text primary key,
  value text not null,
  updated_at timestamptz not null default now()
);
