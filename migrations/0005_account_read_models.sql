-- Read models of the Account aggregate (stream type `account`, schema version 1), and the creator
-- of each QR code.
--
-- Personal fields arrive sealed in the events; the `accounts` projection opens them with the
-- account's key (`account_keys`) while projecting. Once an account's key is destroyed they read
-- as null, on replay too. Keep both tables in step with `projections::accounts::create_tables`;
-- a test compares them.

-- Read model `accounts`: one row per account that exists (opened, not deleted).
create table accounts (
    account_id            uuid        primary key,
    -- The sign-in e-mail; null when it cannot be opened (key destroyed).
    email                 text,
    -- Whether the current e-mail was verified (a change of e-mail resets it).
    email_verified        boolean     not null,
    -- Null when it cannot be opened.
    display_name          text,
    -- `+55DDNNNNNNNNN`; null when not given or when it cannot be opened.
    phone_number          text,
    -- `/fotos/{account_id}?v={etag}`; null when there is no photo.
    photo_url             text,
    -- Merchant name and city suggested when the account makes a QR code.
    default_merchant_name text,
    default_merchant_city text,
    -- A disabled account cannot sign in.
    disabled              boolean     not null,
    -- `at` of AccountOpened, and of the newest event folded in.
    created_at            timestamptz not null,
    updated_at            timestamptz not null,
    -- Stream version of the newest event folded in (the aggregate version this row shows).
    version               bigint      not null
);

-- Read model `account_members`: the invitations of each account's team and the memberships they
-- became. Removed invitations and members are deleted, as is everything of a deleted account
-- (as the workspace and as the member).
create table account_members (
    -- The workspace: the account that invited.
    account_id        uuid        not null,
    invitation_id     text        not null,
    -- The invited address, opened with the workspace's key; null when it cannot be opened.
    email             text,
    role              text        not null check (role in ('manager', 'operator')),
    -- 'invited' until accepted, then 'active'.
    status            text        not null check (status in ('invited', 'active')),
    -- The account that accepted; null while invited.
    member_account_id uuid,
    invited_at        timestamptz not null,
    joined_at         timestamptz,
    primary key (account_id, invitation_id)
);
-- The workspaces a person belongs to (`workspaces_of`, `role_in`).
create index account_members_member_idx on account_members (member_account_id)
    where member_account_id is not null;

-- Who made each QR code: a team member's own account while `owner_id` is the workspace. Null for
-- codes made by visitors and for those made before teams existed.
alter table qrcodes add column created_by text;
-- An operator's own codes in a workspace, newest first.
create index qrcodes_owner_created_by_idx on qrcodes (owner_id, created_by, created_at desc)
    where created_by is not null;
