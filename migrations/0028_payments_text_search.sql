-- The transactions screen's text search (`busca`, issue 37) looks for the text anywhere in a
-- payment's reference, end-to-end id, txid, note, void reason and (for roles that see payers) the
-- payer's name, document and message: `ilike '%…%'` on each, which no b-tree serves, so every
-- search read the account's payments one by one (1.9 s for a text found nowhere at 1M payments).
--
-- A trigram index over the columns people write (note, void reason, the payer's name, document and
-- message) joined in one string finds the rows that may hold the text; the columns' own `ilike`
-- then decides (`projections::payments::search`, which must say the expression exactly as here,
-- `p.` aside). The identifiers (reference, end-to-end id, txid) are matched whole, through the
-- b-tree indexes below: as trigrams their random characters were 80 % of the index's build time
-- (21.6 s of 21.7 s on 1M payments; 4.1 s without them), paid by every `replay --all`.
-- The payer's fields are kept opened in this read model (they are deleted with the account, as
-- `AccountDeleted` removes its rows), so the index holds no more than the table does; a keyed
-- blind index of sealed tokens would only find whole words, where the screen finds any part of a
-- name or document. The codes' and links' descriptions are found through their own (small) tables.
create extension if not exists pg_trgm;

create index payments_searchable_text_idx on payments using gin (
    (coalesce(note, '') || ' ' || coalesce(void_reason, '') || ' '
     || coalesce(payer_name, '') || ' ' || coalesce(payer_document, '') || ' '
     || coalesce(payer_info, ''))
    gin_trgm_ops
);

create index payments_account_end_to_end_idx on payments (account_id, end_to_end_id)
    where end_to_end_id is not null;
create index payments_account_txid_idx on payments (account_id, txid) where txid is not null;
