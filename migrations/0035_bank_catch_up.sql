-- Issue 33, "nothing missed": a connected key's bank is read back through `GET /pix` by the
-- catch-up, which records what a lost or late webhook did not deliver.
--
-- 1. Those payments have the source `api-pix-consulta` (`PaymentSource::ApiPixConsulta`), and a
--    payment typed by hand or read from a statement that the catch-up then finds is confirmed by
--    it: the `payments` read model's checks on `source` and `confirmed_by` let it in. Only widened
--    (`not valid`, then `validate` without blocking writes), so the previous version runs beside it.
alter table payments drop constraint payments_source_check;
alter table payments add constraint payments_source_check
    check (source in ('api-pix', 'manual', 'sandbox', 'extrato', 'api-pix-consulta')) not valid;
alter table payments validate constraint payments_source_check;
alter table payments drop constraint payments_confirmed_by_check;
alter table payments add constraint payments_confirmed_by_check
    check (confirmed_by in ('api-pix', 'sandbox', 'api-pix-consulta')) not valid;
alter table payments validate constraint payments_confirmed_by_check;

-- 2. Side state `bank_catch_up` (written by the catch-up, not a read model): per connected key,
--    how far its bank has been read back (`checked_until`: every Pix the bank reported with a
--    `horario` before it is recorded), and how the last attempts went, for the back-off and for
--    the keys screen's "sem contato com o banco desde …". Losing a row only makes the next run
--    read the last day again (payments are recorded once by their end-to-end id).
create table bank_catch_up (
    key_id          uuid        primary key,
    account_id      uuid        not null,
    checked_until   timestamptz,
    last_success_at timestamptz,
    -- The first failure since the last success (null while the bank answers).
    failing_since   timestamptz,
    failures        integer     not null default 0,
    last_problem    text,
    next_attempt_at timestamptz not null default now(),
    recorded        bigint      not null default 0
);
