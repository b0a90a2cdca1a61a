-- A document's digest (SHA-256 of its bytes) is sealed with its lead's key like its file name, so an
-- erasure leaves no readable copy of it in old row versions or the WAL (docs/operations.md, "Erasure").
-- `sha256` keeps the plain digests written before; the documents module seals them into `sha256_enc`.
alter table lead_documents add column sha256_enc text;
