-- Replay's notes of changes to codes already written (archived or unarchived, claimed by an
-- account), kept while it fills fresh `qrcodes` tables and applied in one pass once the fill
-- ends. The fill leaves `qrcodes` without its key (a sorted build at the end is much cheaper),
-- so applying each page's few changes at once would join them with every row filled so far:
-- with one archive in a hundred events that cost more than the rest of the replay.
--
-- The live table is always empty: the live projector updates `qrcodes` directly. Replay makes
-- its own copy (`qrcode_replay_changes__rebuild_<n>`), fills it, applies it and empties it
-- before the switch.
create table qrcode_replay_changes (
    qrcode_id   uuid        not null,
    -- The event's version in the code's stream: the highest of a kind is the last change.
    version     bigint      not null,
    kind        text        not null check (kind in ('archive', 'claim')),
    -- `archive`: null when the code was brought back.
    archived_at timestamptz,
    -- `claim`: the account that claimed the code and who claimed it.
    owner_id    uuid,
    claimed_by  text
);
