-- Each catalog's snapshot packed (src/catalogs/catalog-packed.ts): its lines in key order, deflated in blocks,
-- with each line's key and each vehicle's model year. A start reads these bytes (2 MB for both shipped
-- catalogs) instead of the snapshots' 8.6 MB of text, and the service holds them as they are. An import
-- writes both forms; a catalog imported before this migration is packed from its snapshot by the first
-- start that loads it (SQL has no deflate).
alter table catalog_meta add column packed bytea;
