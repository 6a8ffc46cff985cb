-- A QR code that is the dynamic code of a charge the account's connected bank made (issue 33,
-- `cob` and `cobv`): when its payer page stops offering it (`QrCodeCreated.bank_charge.expires_at`). Null
-- for every code Balcão writes itself, which never expire. A nullable column without a default:
-- a metadata-only change, no table rewrite. The previous version neither reads nor writes it, so
-- both run side by side during a deploy (a charge projected by a projector of the previous
-- version shows no expiry on its page: run `balcao replay qrcodes` once every projector runs
-- this version).
alter table qrcodes add column charge_expires_at timestamptz;
-- A due-date charge's (`cobv`) public terms, for its payer page: the due date, the days after it,
-- the fine, the interest, the discount and the abatement (`QrCodeCreated.bank_charge.due`, without
-- the debtor, who stays sealed in the log). Null for every other code.
alter table qrcodes add column charge_due jsonb;
