-- The event log: Balcão's source of truth. Never edit this file once applied; add a new migration.
--
-- Global order is the transaction-id horizon (docs/ARCHITECTURE.md): readers take only rows whose
-- writing transaction is older than every transaction still running, ordered by (tx_id, global_position).
create table events (
    -- Drawn at insert time, so it may commit out of order and has holes; never read past it alone.
    global_position bigint generated always as identity,
    -- The writing transaction's id; the feed orders by (tx_id, global_position).
    tx_id           xid8        not null default pg_current_xact_id(),
    -- Unique id of the event; also the Nats-Msg-Id the relay publishes with.
    event_id        uuid        not null unique,
    -- Aggregate type, e.g. 'qrcode'.
    stream_type     text        not null,
    -- Aggregate instance id.
    stream_id       text        not null,
    -- 1..n inside the stream; the primary key enforces expected-version concurrency.
    stream_version  bigint      not null check (stream_version > 0),
    event_type      text        not null,
    schema_version  integer     not null check (schema_version > 0),
    payload         jsonb       not null,
    -- correlation_id, causation_id, actor, idempotency_key, request_id.
    metadata        jsonb       not null default '{}'::jsonb,
    recorded_at     timestamptz not null default now(),
    primary key (stream_type, stream_id, stream_version)
);
create unique index events_global_position on events (global_position);
create index events_feed on events (tx_id, global_position);
