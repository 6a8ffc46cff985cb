-- A QR code that is the dynamic code of a charge the account's connected bank made (issue 33,
-- `cob`): when its payer page stops offering it (`QrCodeCreated.bank_charge.expires_at`). Null
-- for every code Balcão writes itself, which never expire. A nullable column without a default:
-- a metadata-only change, no table rewrite. The previous version neither reads nor writes it, so
-- both run side by side during a deploy (a charge projected by a projector of the previous
-- version shows no expiry on its page: run `balcao replay qrcodes` once every projector runs
-- this version).
alter table qrcodes add column charge_expires_at timestamptz;
