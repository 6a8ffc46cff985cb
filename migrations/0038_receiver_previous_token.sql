-- Replacing a connected bank's credentials or certificate (issue 33, "without downtime"): Balcão
-- gives the key's receiver a new address and registers it at the bank, but a bank may still
-- deliver to the old address for a while (a webhook queued before, a retry). The previous token's
-- digest stays valid until `previous_valid_until` (a few minutes), then only the new one is.
-- A person's own "new address" (the address leaked) clears both at once: nothing old answers.
-- Nullable columns without a default: a metadata-only change; the previous version neither reads
-- nor writes them (it answers only the current token, as before).
alter table api_pix_receivers add column previous_token_digest bytea;
alter table api_pix_receivers add column previous_valid_until timestamptz;
create index api_pix_receivers_previous_token_idx on api_pix_receivers (previous_token_digest)
    where previous_token_digest is not null;
