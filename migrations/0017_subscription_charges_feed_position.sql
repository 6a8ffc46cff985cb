-- Plans and billing, the checkout's live status (issue 12).
--
-- Every change to a subscription charge now moves its row's feed position (`tx_id`,
-- `global_position`), so "the charges changed after position P" is what the `subscriptions`
-- projection applied after P. The live updates (`gateway::live`) ask it once per process each time
-- the projection moves, and once per checkout that connects or reconnects (`Last-Event-ID`).
create index subscription_charges_feed_position_idx on subscription_charges (tx_id, global_position);
-- The sweep's charges called off by a cancellation and still to be deleted at the provider.
create index subscription_charges_to_delete_idx on subscription_charges (created_at) where status = 'cancelled';
