-- The event log: Balcão's source of truth. Never edit this file once applied; add a new migration.
--
-- Global order is the transaction-id horizon (docs/ARCHITECTURE.md): readers take only rows whose
-- writing transaction is older than every transaction still running, ordered by (tx_id, global_position).
create table events (
    -- Drawn at insert time, so it may commit out of order and has holes; never read past it alone.
    global_position bigint      generated always as identity,
    -- The writing transaction's id; the feed orders by (tx_id, global_position). Every event of one
    -- command shares it, because a command is appended by one statement in one transaction.
    tx_id           xid8        not null default pg_current_xact_id(),
    -- Unique id of the event (uuid v7, so new ids sort roughly by time); also the Nats-Msg-Id the
    -- relay publishes with.
    event_id        uuid        not null unique,
    -- Aggregate type, e.g. 'qrcode' (cqrs-es `Aggregate::TYPE`).
    stream_type     text        not null,
    -- Aggregate instance id.
    stream_id       text        not null,
    -- 1..n inside the stream; the primary key enforces expected-version concurrency: two writers
    -- extending a stream from the same version collide on it and only the first commits.
    stream_version  bigint      not null check (stream_version > 0),
    -- Past-tense event name from `DomainEvent::event_type()`, e.g. 'QrCodeCreated'. Unique across
    -- aggregates, so upcasters can be keyed by it.
    event_type      text        not null,
    -- Version of the payload's shape from `DomainEvent::event_version()` ("1", "2", …); upcasters turn
    -- old versions into the current one on read, the stored row is never rewritten.
    schema_version  integer     not null check (schema_version > 0),
    -- The serialised domain event, exactly as `serde_json` wrote it at this schema version.
    payload         jsonb       not null,
    -- correlation_id, causation_id, actor, idempotency_key, request_id (absent keys were not given).
    metadata        jsonb       not null default '{}'::jsonb,
    -- Wall-clock time of the writing transaction's start (now()), for people; never used for order.
    recorded_at     timestamptz not null default now(),
    primary key (stream_type, stream_id, stream_version)
);
create unique index events_global_position on events (global_position);
create index events_feed on events (tx_id, global_position);
