-- Outgoing webhooks (issue 36): side state beside the log, written by `commands::webhooks`.
--
-- `webhook_endpoints`: where an account's events are sent, which kinds, and the HMAC secret that
-- signs each delivery, sealed with the account's key (crypto-shredded with it). While a secret is
-- replaced, the previous one signs too until `previous_valid_until`. Removing one sets
-- `deleted_at`; its deliveries stay for the log screen until the account goes.
create table webhook_endpoints (
    endpoint_id          uuid        primary key,
    account_id           uuid        not null,
    url                  text        not null,
    events               text[]      not null,
    secret               text        not null,
    previous_secret      text,
    previous_valid_until timestamptz,
    created_by           text        not null,
    created_at           timestamptz not null default now(),
    deleted_at           timestamptz
);
create index webhook_endpoints_account_idx on webhook_endpoints (account_id) where deleted_at is null;

-- How far the outbox has read the feed: one row. Deliveries are made from the log, in the same
-- transaction that moves this position, so a crash neither loses nor repeats one. It starts at
-- the log's end as this migration sees it (the feed's index, one row read): no endpoint exists
-- before this version, so nothing before is for anyone, and the outbox never reads the old log.
create table webhook_outbox_position (
    singleton       boolean primary key default true check (singleton),
    tx_id           bigint  not null,
    global_position bigint  not null
);
insert into webhook_outbox_position (tx_id, global_position)
select coalesce((select tx_id::text::bigint from events order by tx_id desc, global_position desc limit 1), 0),
       coalesce((select global_position from events order by tx_id desc, global_position desc limit 1), 0);

-- One row per event and endpoint. `stream_id` and the feed position order the deliveries of one
-- payment: the next is not sent while an earlier one is still being tried.
create table webhook_deliveries (
    delivery_id     uuid        primary key,
    endpoint_id     uuid        not null references webhook_endpoints (endpoint_id),
    account_id      uuid        not null,
    event_id        uuid        not null,
    stream_id       text        not null,
    tx_id           bigint      not null,
    global_position bigint      not null,
    kind            text        not null,
    body            text        not null,
    attempts        integer     not null default 0,
    next_attempt_at timestamptz not null default now(),
    leased_until    timestamptz,
    last_attempt_at timestamptz,
    last_status     integer,
    last_error      text,
    delivered_at    timestamptz,
    given_up_at     timestamptz,
    created_at      timestamptz not null default now(),
    unique (endpoint_id, event_id)
);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at)
    where delivered_at is null and given_up_at is null;
create index webhook_deliveries_stream_idx on webhook_deliveries (endpoint_id, stream_id, tx_id, global_position)
    where delivered_at is null and given_up_at is null;
create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at desc);
