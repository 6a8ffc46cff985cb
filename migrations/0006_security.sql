-- Two columns for the security review (issue 14, item 7). Both are nullable additions, so a
-- gateway of the previous version keeps working beside this one during a rolling deploy.

-- The SHA-256 of the request a keyed command answered (`commands::RequestDigest`): the same
-- `Idempotency-Key` sent with another request is refused with 409 instead of being answered with
-- the first request's outcome. Null for keys recorded before this column existed and for
-- commands whose caller gives no digest; those replay as before.
alter table command_idempotency add column request_digest bytea;

-- Set when the token is rotated: 16 random bytes from which the successor token is derived
-- (SHA-256 of a label, this salt and the presented token). A retry presenting the same token within
-- the reuse interval (`BALCAO_REFRESH_REUSE_INTERVAL_SECS`) gets the very same successor back,
-- although only token hashes are stored: whoever does not hold the presented token cannot derive
-- it. Null for tokens not rotated yet (and for rotations made before this column existed, which
-- then read as reuse, as they did).
alter table refresh_tokens add column successor_salt bytea;
