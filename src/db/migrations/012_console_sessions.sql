-- Sessions of people signed in to the operator console (docs/console.md). The cookie holds a random
-- token; only its SHA-256 hash is stored. A session ends at sign-out, after it has been idle too long,
-- at its absolute end, or when its operator is deleted (the lookup only finds live operators).
create table console_sessions (
  token_hash text primary key,
  operator_id uuid not null references operators (id),
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  expires_at timestamptz not null
);
create index console_sessions_operator_idx on console_sessions (operator_id);
