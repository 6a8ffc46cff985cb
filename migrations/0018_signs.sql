-- Read model `signs`: the signs an account keeps in its dashboard (events SignSaved, SignChanged
-- and SignDeleted of stream type `saved_sign`, schema version 1). Built by `projections::signs`;
-- replayable like every read model. A deleted sign's row is deleted; its events stay in the log.
create table signs (
    sign_id         uuid        primary key,
    -- The account that keeps the sign.
    owner_id        uuid        not null,
    -- The person who saved it (their own account id).
    created_by      text        not null,
    -- The account's QR code the sign prints (a row of `qrcodes`).
    qrcode_id       uuid        not null,
    -- The sign it was copied from, for a duplicate.
    duplicate_of    uuid,
    -- What the owner calls it.
    name            text        not null,
    -- The URL slugs the sign routes read (`modelo=`, `tamanho=`, `tema=`).
    template        text        not null,
    size            text        not null,
    theme           text        not null,
    -- Null: the default headline ("Pague com Pix").
    headline        text,
    footer          text,
    -- Whether the account's logo is drawn (when the plan allows one).
    with_logo       boolean     not null,
    created_at      timestamptz not null,
    updated_at      timestamptz not null,
    -- Feed position of the sign's last change (read-your-writes after saving or changing it).
    tx_id           xid8        not null,
    global_position bigint      not null
);
-- An account's signs, newest first.
create index signs_owner_idx on signs (owner_id, created_at desc);
