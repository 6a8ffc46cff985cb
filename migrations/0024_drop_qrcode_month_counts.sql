-- Contract step of `0021`/`0023`: `qrcode_month_counts` has been read by nothing since `0023` (the plan
-- check counts `qrcode_usage` in the creation's own statement) and written by nothing since the deploy
-- after it (the `qrcodes` projection stopped keeping it). No gateway or projector of the version
-- before this one touches it, so it can go during a rolling deploy.
drop table if exists qrcode_month_counts;
