-- Issue 33, refunds: side state `bank_refunds` (written by the refund command in the same
-- transaction as its `PaymentRefundRequested`, not a read model): the refunds Balcão asked a
-- connected key's bank for whose outcome it does not know yet. The follow-up
-- (`gateway::bank_refunds`) sends each request (again, after reading back whether the bank has
-- it, so a crash between the bank's answer and our record never sends it twice) and reads its
-- status until the payment's stream shows it final or refused; then the row is deleted. The
-- amount and description are the event's, kept here so the request can be sent again without
-- reading the log. Replay neither reads nor writes it.
create table bank_refunds (
    account_id      uuid        not null,
    -- The payment's reference (its end-to-end id) and the refund's id at the bank.
    reference       text        not null,
    refund_id       text        not null,
    -- The connected key whose bank holds the payment.
    key_id          uuid        not null,
    amount_centavos bigint      not null check (amount_centavos > 0),
    description     text,
    next_attempt_at timestamptz not null,
    failures        integer     not null default 0,
    last_problem    text,
    created_at      timestamptz not null default now(),
    primary key (account_id, reference, refund_id)
);
create index bank_refunds_due_idx on bank_refunds (next_attempt_at);
