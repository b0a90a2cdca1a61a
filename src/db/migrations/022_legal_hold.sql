-- A lead under legal hold keeps its personal data (docs/lender-api.md, "Erasure and retention"):
-- {reason, since, operatorId}, null when none. A nullable column without a default: no table rewrite.
alter table leads add column legal_hold jsonb;
