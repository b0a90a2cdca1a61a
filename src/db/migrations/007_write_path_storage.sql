-- Applied before migrations were linted (.squawk.toml); kept as written.
-- squawk-ignore-file constraint-missing-not-valid, adding-serial-primary-key-field
-- Section writes update a lead row many times: room left on each page lets PostgreSQL update in
-- place (HOT) without touching the indexes whenever no indexed column changes.
alter table leads set (fillfactor = 60);

-- One index fewer on every event: the uuid is the key; seq only orders a lead's events and is
-- served by lead_events_lead_idx (lead_id, seq).
alter table lead_events drop constraint lead_events_pkey;
alter table lead_events drop constraint lead_events_id_key;
alter table lead_events add primary key (id)
