-- Applied before migrations were linted (.squawk.toml); kept as written.
-- squawk-ignore-file adding-not-nullable-field
-- Each catalog as the service loads it at start, stored with its rows at every import
-- (src/catalogs/catalogs.repository.ts): one JSON text to read instead of aggregating the tables
-- at every start. The catalogs imported before get theirs here, in the same form: vehicles as arrays
-- of the columns of catalog_vehicle in its order, ZIP codes as [zip_code, settlements,
-- municipality, city, state_code, state_name] with the non-empty city of any of their settlements.
alter table catalog_meta add column snapshot text;

update catalog_meta
   set snapshot = (
     select coalesce(json_agg(json_build_array(version_id, year, make_id, make, model_id, model, version, transmission)
                              order by version_id), '[]')::text
       from catalog_vehicle)
 where kind = 'vehicles';

update catalog_meta
   set snapshot = (
     select coalesce(json_agg(json_build_array(zip_code, settlements, municipality, city, state_code, state_name)
                              order by zip_code), '[]')::text
       from (select zip_code, json_agg(settlement order by settlement_id) as settlements,
                    min(municipality) as municipality, max(city) as city,
                    min(state_code) as state_code, min(state_name) as state_name
               from catalog_zip_settlement
              group by zip_code) as grouped)
 where kind = 'zipCodes';

alter table catalog_meta alter column snapshot set not null;
