-- Read model `pix_keys`: the Pix keys each account registered (the `pix_keys` projection, from the
-- key ring's events, stream type `pix_keys`, schema version 1). Owned by its projection and
-- rebuilt by `balcao replay pix_keys`.
--
-- The key, its holder's name and its label travel sealed in the events; the projection opens them
-- with the account's key (`account_keys`). Once an account is deleted its key is destroyed and its
-- rows are deleted here (`AccountDeleted`); a replay after that finds the values unreadable and
-- deletes the rows again, so nothing of them comes back.
create table pix_keys (
    key_id       uuid        primary key,
    account_id   uuid        not null,
    key_kind     text        not null check (key_kind in ('cpf', 'cnpj', 'email', 'phone', 'evp')),
    -- The key in DICT form, exactly as written in codes (`+5511912345678`, `12ABC34501DE35`…);
    -- null when it cannot be opened.
    pix_key      text,
    -- The name people gave the key ("Caixa da loja"); null when none.
    label        text,
    -- The holder's name as the bank shows it to the payer; null when it cannot be opened.
    holder_name  text,
    -- Exactly one active key per account is the default while the account has any.
    is_default   boolean     not null,
    -- The account id of the person who registered it (the owner or a manager).
    created_by   uuid,
    created_at   timestamptz not null,
    -- When it was renamed last, or `created_at`.
    updated_at   timestamptz not null,
    -- Set when the key was removed; the row stays, for the history of codes made with it.
    removed_at   timestamptz
);
-- An account's active keys (the keys screen, the QR-code form).
create index pix_keys_account_active_idx on pix_keys (account_id, created_at)
    where removed_at is null;
-- A payment's key looked up in its account (`(account_id, pix_key)`), removed keys included.
create index pix_keys_account_key_idx on pix_keys (account_id, pix_key);
