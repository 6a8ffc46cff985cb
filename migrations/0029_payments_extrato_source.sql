-- Payments recorded from an imported bank statement (issue 35) have the source `extrato`
-- (`PaymentSource::Extrato`): the `payments` read model's check on `source` lets it in. Only
-- widened, so the previous version (which writes no `extrato`) runs beside it. `confirmed_by` is
-- untouched: only an API Pix report (or the sandbox's) confirms a payment.
--
-- `not valid` then `validate`: the new check is added without the table's exclusive lock for a
-- full scan; `validate` scans under a lock that lets writes through.
alter table payments drop constraint payments_source_check;
alter table payments add constraint payments_source_check
    check (source in ('api-pix', 'manual', 'sandbox', 'extrato')) not valid;
alter table payments validate constraint payments_source_check;
