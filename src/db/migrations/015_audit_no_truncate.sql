-- Audit records are kept whole: the rules of 009 make UPDATE and DELETE do nothing, and TRUNCATE,
-- which rules do not cover, is refused by a statement trigger (the whole statement fails, nothing is
-- emptied). The same on PostgreSQL and PGlite. (The body is one line: migrations are split into
-- statements at a semicolon that ends a line.)
create function audit_records_refuse_truncate() returns trigger language plpgsql as $$
begin raise exception 'audit records cannot be truncated' using errcode = 'insufficient_privilege'; end
$$;

create trigger audit_records_no_truncate
  before truncate on audit_records
  for each statement execute function audit_records_refuse_truncate();
