-- The batch's sign sheet (`GET /placas/lote/{batch_id}.pdf`) reads a batch's codes by its id
-- alone, without the owner: this index finds them without scanning the account's codes.
-- Only codes made in a batch have one, so the index is partial.
create index qrcodes_batch_idx on qrcodes (batch_id) where batch_id is not null;
