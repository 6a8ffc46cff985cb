-- Relay and projection bookkeeping, and the read models built from the event log.
--
-- Read models are derived data: any of them can be dropped and rebuilt from `events` (replay).

-- How far the relay has published the feed into a JetStream stream.
create table relay_checkpoints (
    -- The JetStream stream; a relay publishing to a new stream starts from the beginning.
    stream_name     text        primary key,
    -- Feed position of the last event JetStream acknowledged (tx_id first, then global_position).
    tx_id           xid8        not null,
    global_position bigint      not null,
    updated_at      timestamptz not null default now()
);

-- How far each projection's read model has got. Written in the same transaction as the read
-- model itself, so the two never disagree.
create table projection_checkpoints (
    projection       text        primary key,
    -- Feed position of the last event included (applied or parked); '0' = nothing yet.
    tx_id            xid8        not null default '0',
    global_position  bigint      not null default 0,
    -- recorded_at of the last event included, for the lag metric.
    last_recorded_at timestamptz,
    updated_at       timestamptz not null default now()
);

-- Poison events: a projection could not apply them, recorded them here and moved on.
create table parked_events (
    projection      text        not null,
    event_id        uuid        not null,
    -- Feed position of the event, to find it in `events`.
    tx_id           xid8        not null,
    global_position bigint      not null,
    stream_type     text        not null,
    stream_id       text        not null,
    event_type      text        not null,
    -- What went wrong, as the projection reported it.
    error           text        not null,
    parked_at       timestamptz not null default now(),
    primary key (projection, event_id)
);

-- Numbers for replay's fresh table sets (`<table>__rebuild_<n>`), so two rebuilds never clash.
create sequence projection_rebuild_generation;

-- One row per finished replay, for operators.
create table projection_rebuilds (
    projection      text        not null,
    generation      bigint      not null,
    -- Events read from the log, and where the new tables took over.
    events          bigint      not null,
    tx_id           xid8        not null,
    global_position bigint      not null,
    started_at      timestamptz not null,
    switched_at     timestamptz not null default now(),
    primary key (projection, generation)
);

-- Read model `qrcodes`: one row per QR code created (event QrCodeCreated, schema version 1).
-- Keep in step with `projections::qrcodes::create_tables`; a test compares the two.
create table qrcodes (
    qrcode_id       uuid        primary key,
    -- Null for QR codes made without an account.
    owner_id        uuid,
    key_kind        text        not null check (key_kind in ('cpf', 'cnpj', 'email', 'phone', 'evp')),
    -- The normalised Pix key.
    pix_key         text        not null,
    merchant_name   text        not null,
    merchant_city   text        not null,
    -- Null when the payer types the amount.
    amount_centavos bigint,
    description     text,
    txid            text        not null,
    -- The BR Code (copy-and-paste string, CRC included).
    payload         text        not null,
    created_at      timestamptz not null,
    -- The event this row came from and its feed position.
    event_id        uuid        not null,
    tx_id           xid8        not null,
    global_position bigint      not null
);
create index qrcodes_owner_id_idx on qrcodes (owner_id, created_at desc) where owner_id is not null;

-- Read model `event_counts`: events per stream type and event type (operations dashboard, and
-- a cheap second projection to check replay against live).
-- Keep in step with `projections::event_counts::create_tables`; a test compares the two.
create table event_counts (
    stream_type      text        not null,
    event_type       text        not null,
    events           bigint      not null,
    last_recorded_at timestamptz not null,
    primary key (stream_type, event_type)
);
