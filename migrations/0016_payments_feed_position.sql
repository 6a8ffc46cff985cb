-- The live updates (`gateway::live`) ask the `payments` read model for the rows whose newest event
-- lies after a feed position: once per process each time the projection moves, and once per client
-- that reconnects (`Last-Event-ID`). Without this index each of those reads the whole table.
create index payments_feed_position_idx on payments (tx_id, global_position);
