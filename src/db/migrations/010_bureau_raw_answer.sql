-- The bureau's own answer a report was read from (Círculo de Crédito's signed JSON), encrypted like
-- the report; null for the sandbox, which has no answer besides the report.
alter table bureau_reports add column raw_enc text
