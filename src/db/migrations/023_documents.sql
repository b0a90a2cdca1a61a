-- Documents that answer the conditions of a lender's decision (docs/api.md, "Documents"). New tables
-- only: nothing existing is locked or rewritten.
create table lead_documents (
  id uuid primary key,
  -- The order of uploads made at the same instant.
  seq bigint generated always as identity,
  lead_id uuid not null references leads (id),
  company_id uuid not null,
  condition_id text not null,
  type text not null,
  -- Sealed with the data key; null once the lead's personal data is erased.
  file_name_enc text,
  content_type text not null,
  size integer not null,
  sha256 text,
  chunks integer not null,
  -- The document's own key, sealed with the data key; destroyed by erasure.
  key_enc text,
  status text not null,
  rejection_reason text,
  uploaded_at timestamptz not null,
  reviewed_at timestamptz,
  reviewed_by text,
  erased_at timestamptz,
  idempotency_key text,
  request_hash text
);
create index lead_documents_lead on lead_documents (lead_id, uploaded_at, seq);
create unique index lead_documents_idempotency on lead_documents (company_id, idempotency_key)
  where idempotency_key is not null;

-- The sealed chunks of documents kept in the database (DOCUMENT_STORE=database).
create table document_chunks (
  object_id uuid not null,
  seq integer not null,
  body bytea not null,
  primary key (object_id, seq)
);

-- Stored objects to remove: an upload under way or one that failed (kept while it may still be
-- running), and the objects of erased documents. Chunks null: as many as a document may have.
create table document_orphans (
  object_id uuid primary key,
  chunks integer,
  since timestamptz not null
);
create index document_orphans_since on document_orphans (since);
