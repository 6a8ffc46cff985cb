-- Side state `bank_credentials` (issue 33; written by the bank-connection commands in the same
-- transaction as their events, not a read model): what Balcão needs to call the bank that holds a
-- key through its API Pix. Every credential is sealed with the account's key (`v1.` AES-256-GCM,
-- `commands::vault`): deleting the account's key makes them unreadable with the rest of its
-- personal data, and the rows go with the account. The log records only the bank, the environment
-- and the certificate's fingerprint and expiry (`BankConnected`). One row per connected key;
-- connecting again replaces it, disconnecting deletes it. Replay neither reads nor writes it.
create table bank_credentials (
    key_id        uuid        primary key,
    account_id    uuid        not null,
    -- The profile's slug (`efi`, `banco-do-brasil`, …, `outro`) and `producao` / `homologacao`.
    bank          text        not null,
    environment   text        not null,
    -- Only for `outro`: the addresses the owner typed (not secret).
    api_base      text,
    token_url     text,
    -- Sealed: the OAuth2 client id and secret, the certificate chain (PEM) and its private key
    -- (PKCS#8 PEM), and the bank's extra value when its profile asks for one (Banco do Brasil's
    -- developer application key, Inter's account number).
    client_id     text        not null,
    client_secret text        not null,
    certificate   text        not null,
    private_key   text        not null,
    extra         text,
    updated_at    timestamptz not null default now()
);
create index bank_credentials_account_idx on bank_credentials (account_id);
