-- A keyed fingerprint of the lead's phone, so a section write can tell in SQL whether it would
-- change the phone of a verified lead (the phone itself is stored only encrypted).
alter table leads add column phone_fp text
