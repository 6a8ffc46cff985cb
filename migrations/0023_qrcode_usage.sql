-- Side state `qrcode_usage` (written by commands, like `unique_claims`; not a read model): how many
-- codes each account has made in each calendar month of São Paulo, counted in the same transaction
-- as the events that make them. The plan check of a creation is the count's own upsert: it adds the
-- new codes, reads the total back and refuses past the plan's limit, and its row lock keeps two
-- creations of one account from both passing the last code. Until this table, the check took an
-- advisory lock on a second connection and counted `qrcode_month_counts` plus the log's tail past the
-- projector's checkpoint, a count that grew with the projector's lag (issue 16).
--
-- A code counts for its owner in the month it was made (`QrCodeCreated.created_at`); a visitor's code
-- claimed by an account counts for that account in the month it was made, as `qrcode_month_counts`
-- counts it. Filled here from the log, so it is exact whatever the projector had applied. A gateway
-- of the previous version still running after this migration makes codes without counting them here;
-- they are counted again by running this file's `insert` once every gateway runs this version
-- (`migrations/README.md`).
create table qrcode_usage (
    account_id uuid   not null,
    -- The first day of the month, São Paulo time.
    month      date   not null,
    codes      bigint not null check (codes >= 0),
    primary key (account_id, month)
);

insert into qrcode_usage (account_id, month, codes)
select owner_id, month, count(*)
  from (select (created.payload->>'owner_id')::uuid as owner_id,
               (date_trunc('month', (created.payload->>'created_at')::timestamptz
                                    at time zone 'America/Sao_Paulo'))::date as month
          from events created
         where created.stream_type = 'qrcode' and created.event_type = 'QrCodeCreated'
           and created.payload->>'owner_id' is not null
        union all
        select (claimed.payload->>'owner_id')::uuid,
               (date_trunc('month', (created.payload->>'created_at')::timestamptz
                                    at time zone 'America/Sao_Paulo'))::date
          from events claimed
          join events created
            on created.stream_type = 'qrcode' and created.stream_id = claimed.stream_id
           and created.event_type = 'QrCodeCreated'
         where claimed.stream_type = 'qrcode' and claimed.event_type = 'QrCodeClaimed') made
 group by 1, 2
on conflict (account_id, month) do update set codes = excluded.codes;
