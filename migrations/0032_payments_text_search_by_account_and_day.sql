-- The transactions screen's totals with a text (`busca`, issue 37) over 365 days took 335–552 ms
-- at 1M payments in the account: the trigram index of 0028 has neither the account nor the day,
-- so its bitmap held every account's matches of every year (a tenth of the table for a common
-- name) and the heap scan read nearly the whole table to keep the period's rows. With the account
-- and the São Paulo day as the index's first columns (`btree_gin`), the bitmap holds only the
-- account's matches in the period (`projections::payments::search`, BENCHMARKS.md).
--
-- The columns are joined with a unit separator (U+001F) instead of a space: a text without that
-- character cannot match across two columns, so a match in the joined string is a match in one
-- of the columns, and the query no longer says each column's `ilike` again for every candidate
-- (five more `ilike` per row when the payer's fields are searched). The query must say the
-- expression exactly as here (`p.` aside).
--
-- Built beside the old index, which is then dropped and its name taken: the previous version's
-- expression (spaces) no longer has an index, so its text search reads the account's payments
-- until it is replaced (answers unchanged).
create extension if not exists btree_gin;

create index payments_searchable_text_by_day_idx on payments using gin (
    account_id,
    paid_on,
    (coalesce(note, '') || E'\x1f' || coalesce(void_reason, '') || E'\x1f'
     || coalesce(payer_name, '') || E'\x1f' || coalesce(payer_document, '') || E'\x1f'
     || coalesce(payer_info, ''))
    gin_trgm_ops
);
drop index payments_searchable_text_idx;
alter index payments_searchable_text_by_day_idx rename to payments_searchable_text_idx;

-- The planner's estimate of a text's matches comes from the statistics of the index's
-- expression, which a new expression has none of until `analyze` (autovacuum is off on some
-- servers): without them the list with a text was planned as if a common name matched a
-- hundred rows, and read all of the account's matches (480 ms instead of 0.6 ms at 1M).
analyze payments;
