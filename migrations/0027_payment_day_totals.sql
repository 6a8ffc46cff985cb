-- Read model `payment_day_totals` (owned by the `payments` projection, issue 37): the `payments`
-- rows summed per account, São Paulo day and every value the transactions screen's filters read
-- except the amount range and the text. Its `summary` (the totals and the chart of the screen)
-- read the account's payments row by row: 343 ms for 365 days at 1M payments in one account, more
-- for "all". Summing this table's few dozen rows a day answers the same totals; a search with an
-- amount range or a text still sums `payments` (`projections::payments::search::summary`).
--
-- Every payment counts in exactly one row, voided ones too (the screen counts them apart); a row
-- whose payments all moved away is deleted, so a day with no payment has no row, as replay
-- (which sums the rebuilt `payments` once its fill ends) makes it. Live moves it by the
-- difference each event makes to its payment's row.
--
-- Filled here from `payments` as it stands. A projector of the previous version that still runs
-- after this migration writes payments without moving these sums: once every projector runs
-- this version, `balcao replay payments` makes them exact again.
create table payment_day_totals (
    account_id        uuid    not null,
    -- `payments.paid_on`: the São Paulo calendar day.
    day               date    not null,
    -- Null: no code ("sem QR code", or a payment link's).
    qrcode_id         uuid,
    -- `payments.payment_link_id is not null`: the screen's "links" filter.
    via_link          boolean not null,
    -- The key paid to, as `payments.pix_key` (the key filter also matches the code's key,
    -- joined through `qrcode_id`).
    pix_key           text,
    source            text    not null,
    -- `received` or `voided`.
    status            text    not null,
    -- `payments.refunds <> '[]'`: a refund was reported, whatever its status (the screen's
    -- "refunded" filter).
    refund_reported   boolean not null,
    payments          bigint  not null,
    amount_centavos   bigint  not null,
    refunded_centavos bigint  not null
);
-- One row per combination; a period reads the account's days in order.
create unique index payment_day_totals_key_idx on payment_day_totals
    (account_id, day, qrcode_id, via_link, pix_key, source, status, refund_reported)
    nulls not distinct;

insert into payment_day_totals (account_id, day, qrcode_id, via_link, pix_key, source, status,
                                refund_reported, payments, amount_centavos, refunded_centavos)
select account_id, paid_on, qrcode_id, payment_link_id is not null, pix_key, source, status,
       refunds <> '[]'::jsonb, count(*), sum(amount_centavos), sum(refunded_centavos)
  from payments
 group by 1, 2, 3, 4, 5, 6, 7, 8;
analyze payment_day_totals;
