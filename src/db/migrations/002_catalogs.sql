-- Applied before migrations were linted (.squawk.toml); kept as written.
-- squawk-ignore-file ban-char-field
-- Reference catalogs served by the catalog API (ops 1-4) and used to check lead data.
-- They are replaced whole by an import (one transaction), never edited row by row, so readers
-- always see one complete catalog. Standalone: nothing here references another migration.

-- One row per vehicle version (Mexican-market catalog, see catalog-data/README.md).
-- make/model names are repeated per row on purpose: the catalog is read whole into memory.
create table catalog_vehicle (
  version_id integer primary key,
  year smallint not null,
  make_id integer not null,
  make text not null,
  model_id integer not null,
  model text not null,
  version text not null,
  transmission text not null check (transmission in ('automatic', 'manual'))
);

-- One row per SEPOMEX settlement (colonia). A ZIP code has one or more settlements.
-- settlement_id is unique within a ZIP code (checked by the importer as well). The primary key
-- starts with zip_code, so it is also the index for lookups by ZIP code: no second index needed.
create table catalog_zip_settlement (
  zip_code char(5) not null,
  settlement text not null,
  settlement_type text not null,
  municipality text not null,
  city text not null,
  state_code char(2) not null,
  state_name text not null,
  municipality_code text not null,
  settlement_id text not null,
  zone text not null,
  primary key (zip_code, settlement_id)
);

-- What was imported last, per catalog ('vehicles' or 'zipCodes'). The row is written in the
-- same transaction as the data, so its presence means the catalog is loaded, and sha256 lets
-- every instance notice that another one imported a new file.
create table catalog_meta (
  kind text primary key check (kind in ('vehicles', 'zipCodes')),
  row_count integer not null,
  sha256 text not null,
  imported_at timestamptz not null
);
