-- Command idempotency and the notification that wakes the relay.

-- One row per command that carried an idempotency key and succeeded. It is written by the same
-- statement (and so the same transaction) as the command's events: the events exist if and only if
-- the row does. A repeated or racing duplicate hits the primary key and answers with `result`.
create table command_idempotency (
    -- Client-chosen key (the `Idempotency-Key` header): 1 to 255 visible ASCII characters.
    idempotency_key text        primary key,
    -- The stream the first command wrote to; reusing a key for another stream is refused.
    stream_type     text        not null,
    stream_id       text        not null,
    -- The first execution's answer as the command service returns it (`commands::CommandOutcome`):
    -- {stream_type, stream_id, version, event_ids, position: {tx_id, global_position} or null}.
    result          jsonb       not null,
    recorded_at     timestamptz not null default now()
);
-- Lets old keys be pruned by age without scanning the table.
create index command_idempotency_recorded_at on command_idempotency (recorded_at);

-- Wakes the relay (LISTEN balcao_events) when events are inserted. The notification is a hint, not
-- a delivery: it carries no payload, it is sent at commit, and the relay must still look again
-- shortly after each one and poll, because an event it is woken for can sit above the
-- transaction-id horizon until an older transaction ends.
--
-- Gated: only one transaction at a time carries the notification. The first inserting transaction
-- takes a transaction-scoped advisory lock and notifies; transactions inserting while it is still
-- in flight skip (their events are picked up by the relay's look after that notification, the next
-- notification, or its poll). Why: at commit, PostgreSQL serialises every transaction that has a
-- pending notification behind one cluster-wide lock held across the WAL flush, so commits stop
-- sharing fsyncs. Measured with pgbench on the 2-core dev VM (single-row inserts of ~300 B):
-- 10.9k/s without the trigger vs 3.5k/s with a notify on every insert at 32 writers on a quiet
-- machine; on a loaded one, 3.2k/4.3k/s without, 0.8k/1.3k/s notifying every insert, 3.0k/3.5k/s
-- gated. (A per-connection 50 ms debounce did well on the quiet machine and collapsed on the loaded
-- one: it does not bound the number of notifying transactions in flight.) Details in
-- commands/README.md.
--
-- Lock key: Balcão's advisory-lock space 1113680995 ('Balc') and 1828611898 (FNV-1a of
-- 'notify:balcao_events', the scheme projections/src/locks.rs uses for its keys).
create function events_notify_relay() returns trigger
language plpgsql as $$
begin
    if pg_try_advisory_xact_lock(1113680995, 1828611898) then
        perform pg_notify('balcao_events', '');
    end if;
    return null;
end
$$;

create trigger events_notify_relay
    after insert on events
    for each statement
    execute function events_notify_relay();
