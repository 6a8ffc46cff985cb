-- The transactions screen's totals with an amount range (issue 37) cannot be read from
-- `payment_day_totals` (0027), which has no amounts per payment: they sum the account's payments
-- of the period one by one, 335,000 rows for 365 days at 1M payments, each read from the table
-- (250 ms at p99). With the columns that sum carried in the index that reads the period anyway,
-- the sum is an index-only scan (`projections::payments::search::summary_of_amounts`): no table
-- page is read for a page the visibility map says is all visible, which `balcao replay` makes
-- every page of its rebuilt tables (it vacuums them before the switch).
--
-- Same key as before, so the list's order (paid_at desc, then reference) reads it as it did;
-- built beside the old one, which is then dropped, so there is always an index on the period.
create index payments_account_paid_sums_idx on payments (account_id, paid_at desc)
    include (paid_on, amount_centavos, refunded_centavos, status);
drop index payments_account_paid_idx;
alter index payments_account_paid_sums_idx rename to payments_account_paid_idx;
