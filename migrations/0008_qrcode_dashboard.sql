-- The dashboard's QR codes: which registered key a code was made from, the batch it was made in,
-- the code it duplicates, whether it is archived, and how many events its row reflects.
-- All nullable or defaulted, so the previous version (which never writes them) runs beside it.

-- `pix_keys.key_id` of the key the code was made from; null for a typed key and for visitors.
-- No foreign key: read models never rely on them (replay does not copy them).
alter table qrcodes add column key_id uuid;
-- One id shared by the codes one batch command made; null for a code made alone.
alter table qrcodes add column batch_id uuid;
-- The code this one was duplicated from (same values, new txid).
alter table qrcodes add column duplicate_of uuid;
-- When the code was archived (QrCodeArchived); null while it takes payments.
alter table qrcodes add column archived_at timestamptz;
-- The code's stream version the row reflects (1 after creation, +1 per archive or unarchive):
-- the ETag of the code, and what a reader waits for after archiving.
alter table qrcodes add column version bigint not null default 1;

-- Payments find their code by txid within the account (compared in upper case, as the
-- `txid:<account>` claims are); the dashboard searches by it too.
create index qrcodes_owner_txid_idx on qrcodes (owner_id, upper(txid)) where owner_id is not null;
