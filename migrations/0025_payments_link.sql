-- A payment link is sold once: its page says "pago" to everyone once a payment of it arrived.
-- The intake matches a payment to a link from the link's txid claim (`unique_claims`, owner
-- `link:{id}`) and the payment names the link; the page and the dashboard ask `payments` for it.
-- Nullable and unread by the previous version: both run side by side during a deploy.
alter table payments add column payment_link_id uuid;

-- The link's page and the dashboard's list ask for a link's payments by its id alone; most
-- payments are not a link's, so the index holds only those that are.
create index payments_link_idx on payments (payment_link_id) where payment_link_id is not null;
