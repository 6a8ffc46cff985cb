-- Developer API keys (issue 36): side state beside the log, like `api_pix_receivers`. A key acts
-- for its account with the scopes it was given; only the SHA-256 of its secret is kept (the
-- secret is shown once), with its first characters (`token_hint`) so the owner can tell keys
-- apart. Revoking sets `revoked_at`; the row stays for the audit trail (events caused by a key
-- name its `key_id` in their metadata). `last_used_at` is written at most once a minute per key.
create table api_keys (
    key_id       uuid        primary key,
    account_id   uuid        not null,
    name         text        not null,
    scopes       text[]      not null,
    token_digest bytea       not null unique,
    token_hint   text        not null,
    created_by   text        not null,
    created_at   timestamptz not null default now(),
    expires_at   timestamptz,
    revoked_at   timestamptz,
    last_used_at timestamptz
);
create index api_keys_account_idx on api_keys (account_id, created_at);
