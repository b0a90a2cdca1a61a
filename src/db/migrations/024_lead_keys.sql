-- Each lead's own data key, wrapped by the service's data key (docs/operations.md, "Erasure"): the lead's
-- personal values are sealed with it, and erasure destroys it. Sixteen small partitions, so the one that
-- held an erased key is rewritten (VACUUM FULL) in milliseconds, its dead copy gone from the files.
create table lead_keys (
  lead_id uuid not null,
  key_enc text not null,
  created_at timestamptz not null,
  primary key (lead_id)
) partition by hash (lead_id);
-- Its partitions lead_keys_00 to lead_keys_15.
do $$
begin
  for i in 0..15 loop
    execute format('create table %I partition of lead_keys for values with (modulus 16, remainder %s)',
      'lead_keys_' || lpad(i::text, 2, '0'), i);
  end loop;
end
$$;

-- Partitions that held a destroyed key and are yet to be rewritten.
create table lead_key_shreds (
  partition text primary key,
  since timestamptz not null
);
