-- A QR code made for one sale (issue 32): once a payment of it arrives, its payer page says
-- "já foi pago" to everyone instead of offering the code. `QrCodeCreated.single_use`, absent
-- (false) on every code made before it. When it was paid is not stored here: the payer page and
-- the dashboard ask `payments` (matched to the code by its txid claim) for it, as a payment
-- link's does.
-- Not null with a constant default: a metadata-only change, no table rewrite. The previous
-- version neither reads nor writes it, so both run side by side during a deploy (a single-use
-- code made through a new gateway while a projector of the previous version writes `qrcodes` is
-- written reusable: run `balcao replay qrcodes` once every projector runs this version).
alter table qrcodes add column single_use boolean not null default false;
