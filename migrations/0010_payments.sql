-- Payments: the API Pix receivers (side state) and the `payments` and `daily_totals` read models.

-- One API Pix webhook receiver per registered Pix key (`pix_keys.key_id`, migration 0007). The
-- bank calls `{site}/webhooks/api-pix/{token}/pix`; only the token's SHA-256 is kept, so a leak
-- of this table names no usable URL. Rotating replaces the digest (the old URL stops at once);
-- revoking sets `revoked_at`. Side state rather than events: a secret has no business history.
create table api_pix_receivers (
    receiver_id  uuid        primary key,
    account_id   uuid        not null,
    key_id       uuid        not null,
    token_digest bytea       not null unique, -- SHA-256 of the URL's token
    created_by   text        not null,        -- the person who turned it on
    created_at   timestamptz not null default now(),
    rotated_at   timestamptz,
    revoked_at   timestamptz
);
-- At most one live receiver per key.
create unique index api_pix_receivers_live_key_idx on api_pix_receivers (key_id) where revoked_at is null;
create index api_pix_receivers_account_idx on api_pix_receivers (account_id);

-- Read model `payments`: one row per Payment stream (`account_id:reference`).
create table payments (
    account_id        uuid        not null,
    -- The Pix end-to-end id, or `manual-…` for a payment typed in without one.
    reference         text        not null,
    end_to_end_id     text,
    -- As it stands (a bank's confirmation replaces a typed amount).
    amount_centavos   bigint      not null,
    -- Sum of the refunds whose status is DEVOLVIDO.
    refunded_centavos bigint      not null default 0,
    paid_at           timestamptz not null,
    -- The calendar day of `paid_at` in São Paulo (America/Sao_Paulo).
    paid_on           date        not null,
    txid              text,
    -- Null: "sem QR code".
    qrcode_id         uuid,
    pix_key           text,
    -- Who recorded it first.
    source            text        not null check (source in ('api-pix', 'manual', 'sandbox')),
    -- The bank source that confirmed a payment typed in by hand.
    confirmed_by      text        check (confirmed_by in ('api-pix', 'sandbox')),
    status            text        not null check (status in ('received', 'voided')),
    -- Opened with the account's key; null when none was sent or the key is gone.
    payer_name        text,
    payer_document    text,
    payer_info        text,
    note              text,
    recorded_by       text,
    void_reason       text,
    recorded_at       timestamptz not null,
    -- [{id, rtrId, amountCentavos, status}] in the order first seen.
    refunds           jsonb       not null default '[]',
    -- The stream version this row shows, and the newest event's feed position.
    version           bigint      not null,
    tx_id             xid8        not null,
    global_position   bigint      not null,
    primary key (account_id, reference)
);
create index payments_account_paid_idx on payments (account_id, paid_at desc);
create index payments_account_code_idx on payments (account_id, qrcode_id, paid_at desc);

-- Read model `daily_totals`: per account, São Paulo calendar day and QR code (null: payments
-- without a code), what was received by payments that stand (not voided).
create table daily_totals (
    account_id        uuid   not null,
    day               date   not null,
    qrcode_id         uuid,
    payments          bigint not null,
    received_centavos bigint not null,
    refunded_centavos bigint not null
);
create unique index daily_totals_key_idx on daily_totals (account_id, day, qrcode_id) nulls not distinct;
