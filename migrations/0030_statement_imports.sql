-- Read model `statement_imports` (issue 35): the bank statement imports of each account, for the
-- transactions screen's list ("Importações de extrato") with their undo button. Filled by the
-- `statement_imports` projection from the Payment events: a `PaymentRecorded` carrying a
-- `statement` origin counts one payment for its import, a `PaymentVoided` carrying
-- `undone_import` one payment taken back by that import's undo. Nothing decides from it: undoing
-- reads the import's own claims (`unique_claims`, scope `statement-import:{account}:{import}`).
-- An import that recorded no payment (every line already there, or linked) has no row.
create table statement_imports (
    account_id  uuid        not null,
    import_id   text        not null,
    file_name   text        not null,
    -- The person who imported it, by account id.
    imported_by text,
    -- The earliest `recorded_at` of its payments.
    imported_at timestamptz not null,
    -- Payments it recorded (a line imported again after an undo counts for the new import).
    recorded    bigint      not null default 0,
    -- Payments its undo voided, and when the last was.
    undone      bigint      not null default 0,
    undone_at   timestamptz,
    primary key (account_id, import_id)
);
create index statement_imports_account_idx on statement_imports (account_id, imported_at desc);
