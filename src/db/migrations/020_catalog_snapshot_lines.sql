-- The catalog snapshots (migration 014) become one JSON array a line, so a start finds where each
-- entry is without parsing the text, and an answer parses only its own lines
-- (src/catalogs/catalog-index.ts). The entries are the same: vehicles as arrays of the columns of
-- catalog_vehicle in its order, ZIP codes as [zip_code, settlements, municipality, city, state_code,
-- state_name] with the non-empty city of any of their settlements. They are made again from the
-- tables, as migration 014 made them; JSON escapes line breaks inside strings, so each entry is one line.
update catalog_meta
   set snapshot = (
     select coalesce(string_agg(json_build_array(version_id, year, make_id, make, model_id, model, version,
                                                 transmission)::text, E'\n' order by version_id), '')
       from catalog_vehicle)
 where kind = 'vehicles';

update catalog_meta
   set snapshot = (
     select coalesce(string_agg(json_build_array(zip_code, settlements, municipality, city, state_code,
                                                 state_name)::text, E'\n' order by zip_code), '')
       from (select zip_code, json_agg(settlement order by settlement_id) as settlements,
                    min(municipality) as municipality, max(city) as city,
                    min(state_code) as state_code, min(state_name) as state_name
               from catalog_zip_settlement
              group by zip_code) as grouped)
 where kind = 'zipCodes';
