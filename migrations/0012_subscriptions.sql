-- Plans and billing (issue 12).
--
-- Read models `subscriptions` and `subscription_charges`, built by `projections::subscriptions`
-- from the subscription aggregate's events (stream type `subscription`, stream id = the account
-- id, schema version 1); replayable like every read model.
create table subscriptions (
    account_id        uuid        primary key,
    -- The Premium plan of the current or last period, or of the checkout under way:
    -- `premium-mensal` or `premium-anual`. Grátis is the absence of an active period.
    plan              text        not null,
    -- `checkout` (waiting for the first payment), `active`, `cancelling` (active, ends at
    -- `active_until`) or `expired` (back on Grátis).
    status            text        not null check (status in ('checkout', 'active', 'cancelling', 'expired')),
    -- The end of the period paid for; Premium until this instant.
    active_until      timestamptz,
    updated_at        timestamptz not null,
    -- Feed position of the last event applied (read-your-writes after a command).
    tx_id             xid8        not null,
    global_position   bigint      not null
);
-- The housekeeping sweep: periods ending soon (renewal charges) or ended (expiry).
create index subscriptions_active_until_idx on subscriptions (active_until) where status in ('active', 'cancelling');

create table subscription_charges (
    -- Our id for the charge (the provider's external reference).
    charge_id           uuid        primary key,
    account_id          uuid        not null,
    plan                text        not null,
    -- false: starts a period (a checkout); true: renews one.
    renewal             boolean     not null,
    amount_centavos     bigint      not null,
    -- `sandbox` or `asaas`, and the provider's id of the charge (Asaas: `pay_…`).
    provider            text        not null,
    provider_payment_id text        not null,
    -- The Pix copy-and-paste code (checked by the BR Code engine before it was recorded).
    pix_payload         text        not null,
    -- When the Pix stops being payable.
    expires_at          timestamptz not null,
    -- `open`, `overdue`, `paid`, `deleted`, `refunded` or `cancelled`.
    status              text        not null,
    created_at          timestamptz not null,
    paid_at             timestamptz,
    -- The period this charge paid for, once paid.
    period_from         timestamptz,
    period_until        timestamptz,
    tx_id               xid8        not null,
    global_position     bigint      not null
);
-- An account's charges, newest first.
create index subscription_charges_account_idx on subscription_charges (account_id, created_at desc);

-- Side state (not a read model): billing provider webhook deliveries already handled, by the
-- provider's event id (Asaas delivers at least once). Kept 30 days by housekeeping.
create table billing_webhook_events (
    provider     text        not null,
    event_id     text        not null,
    received_at  timestamptz not null default now(),
    primary key (provider, event_id)
);
