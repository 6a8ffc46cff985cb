-- Read model `qrcode_month_counts` (owned by the `qrcodes` projection): how many codes each
-- account has made in each calendar month of São Paulo, where the shops are. The plan check reads
-- one row here instead of counting the account's codes of the month in `qrcodes`, which cost
-- every creation more as a shop sold more (0.8 ms per creation in the creations benchmark).
--
-- Live keeps it with each batch (one upsert of the batch's months; a claim moves its code's
-- count to the claiming account). Replay computes it in one pass from the rebuilt `qrcodes` once
-- its fill ends. Filled here from `qrcodes` as it stands. A projector of the previous version that
-- still runs after this migration adds codes without counting them: once every projector runs
-- this version, `balcao replay qrcodes` makes the counts exact again.
create table qrcode_month_counts (
    owner_id uuid   not null,
    -- The first day of the month, São Paulo time.
    month    date   not null,
    codes    bigint not null check (codes >= 0),
    primary key (owner_id, month)
);

insert into qrcode_month_counts (owner_id, month, codes)
select owner_id, (date_trunc('month', created_at at time zone 'America/Sao_Paulo'))::date, count(*)
  from qrcodes
 where owner_id is not null
 group by 1, 2;
