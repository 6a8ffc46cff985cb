-- Read model `payment_links`: one row per payment link (events PaymentLinkCreated and
-- PaymentLinkRevoked of stream type `payment_link`, schema version 1). Built by
-- `projections::payment_links`; replayable like every read model. The link's token is not
-- stored anywhere: it is an HMAC of `link_id` with a key derived from the server secret.
create table payment_links (
    link_id         uuid        primary key,
    -- The account that owns the link.
    owner_id        uuid        not null,
    -- The person who made it (their own account id).
    created_by      text        not null,
    key_kind        text        not null check (key_kind in ('cpf', 'cnpj', 'email', 'phone', 'evp')),
    -- The normalised Pix key, as written in the code.
    pix_key         text        not null,
    merchant_name   text        not null,
    merchant_city   text        not null,
    amount_centavos bigint      not null,
    description     text,
    txid            text        not null,
    -- The BR Code (copy-and-paste string, CRC included).
    payload         text        not null,
    -- Null: the link never expires.
    expires_at      timestamptz,
    created_at      timestamptz not null,
    -- Set once the link is revoked, with who revoked it.
    revoked_at      timestamptz,
    revoked_by      text,
    -- Feed position of the creation (read-your-writes after creating).
    tx_id           xid8        not null,
    global_position bigint      not null
);
-- An account's links, newest first.
create index payment_links_owner_idx on payment_links (owner_id, created_at desc);
