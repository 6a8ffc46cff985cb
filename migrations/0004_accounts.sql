-- Accounts: the state that lives beside the event log rather than in it.
--
-- The Account aggregate's history is in `events`. What is here is either a constraint the log cannot
-- express (one account per e-mail), a secret that must be destroyable (per-account keys, for LGPD
-- crypto-shredding), or short-lived security state (sessions, refresh tokens, single-use links).

-- Set-based uniqueness, written in the same transaction as the events that need it
-- (`commands::Effects`). `value` is a digest, never the plain value.
create table unique_claims (
    scope      text        not null, -- what is unique: 'email', 'invite:<owner account id>'
    value      text        not null, -- hex SHA-256 of the normalised value
    owner      text        not null, -- the stream id holding the claim (an account id)
    claimed_at timestamptz not null default now(),
    primary key (scope, value)
);
create index unique_claims_owner on unique_claims (owner);

-- One AES-256-GCM key per account. Personal fields in events are sealed with it; deleting the row
-- makes them unreadable for good (crypto-shredding), while the log itself stays append-only.
create table account_keys (
    account_id text        primary key,
    key        bytea       not null, -- 32 random bytes
    created_at timestamptz not null default now()
);

-- Single-use links sent by e-mail: verify an address, reset a password, confirm a new e-mail,
-- accept an invitation. Only the SHA-256 of the code is kept.
create table action_codes (
    code_hash  bytea       primary key,
    account_id text        not null, -- the account the link acts on
    purpose    text        not null, -- 'verify_email', 'reset_password', 'change_email', 'invitation'
    payload    jsonb       not null default '{}', -- purpose-specific; personal values in it are sealed
    issued_at  timestamptz not null default now(),
    expires_at timestamptz not null,
    used_at    timestamptz           -- set once, when the link is used
);
create index action_codes_account on action_codes (account_id);

-- Sign-in sessions: one per device sign-in. A session is the family of its refresh tokens; ending
-- the session (sign-out, reuse of a rotated token, a disabled or deleted account) ends them all.
create table auth_sessions (
    id             uuid        primary key,
    account_id     text        not null,
    created_at     timestamptz not null default now(),
    last_used_at   timestamptz not null default now(),
    user_agent     text,                 -- shown in the session list, cut to 200 characters
    revoked_at     timestamptz,
    revoked_reason text                  -- 'sign_out', 'sign_out_all', 'token_reuse', 'ended', 'disabled', 'password_reset', 'deleted'
);
create index auth_sessions_account on auth_sessions (account_id);

-- Refresh tokens, stored as SHA-256. Each refresh marks the presented token rotated and issues its
-- successor; presenting a rotated token again ends the whole session (family).
create table refresh_tokens (
    token_hash bytea       primary key,
    session_id uuid        not null references auth_sessions (id) on delete cascade,
    issued_at  timestamptz not null default now(),
    expires_at timestamptz not null,
    rotated_at timestamptz
);
create index refresh_tokens_session on refresh_tokens (session_id);

-- Profile photos, outside the log (personal data; deleted with the account).
create table account_photos (
    account_id   text        primary key,
    content_type text        not null, -- image/jpeg, image/png or image/webp, checked by magic bytes
    bytes        bytea       not null,
    etag         text        not null, -- hex SHA-256 of the bytes, also the photo URL's version
    updated_at   timestamptz not null default now()
);

-- Server-wide secrets generated on first start (the access-token signing key when none is
-- configured), so every gateway of a cluster signs with the same key.
create table server_secrets (
    name       text        primary key,
    value      bytea       not null,
    created_at timestamptz not null default now()
);
