-- `qrcodes`: no statistics for the columns no query filters, joins or groups by. The planner
-- never reads them, and gathering them was most of an `analyze` of the table: the BR Code
-- text, the names and the keys are long and nearly all distinct. Replay analyzes every table
-- it rebuilds before the switch (and copies these settings to it), and autovacuum analyzes the
-- live table as it grows. Set a column back to the default (`set statistics -1`) when a query
-- starts to filter by it.
alter table qrcodes
    alter column key_kind set statistics 0,
    alter column pix_key set statistics 0,
    alter column merchant_name set statistics 0,
    alter column merchant_city set statistics 0,
    alter column payload set statistics 0,
    alter column event_id set statistics 0,
    alter column tx_id set statistics 0,
    alter column global_position set statistics 0,
    alter column duplicate_of set statistics 0,
    alter column version set statistics 0;
