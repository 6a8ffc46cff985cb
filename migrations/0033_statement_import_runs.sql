-- Side state `statement_import_runs` (issue 35; written by the gateway, not a read model and not
-- the write side's record): how far a big statement import running in the background has got,
-- for its progress bar ("12.000 de 100.000 linhas"). The claims and the Payment events are what
-- the import did; this row only tells the screen. Losing it loses the bar, nothing else; replay
-- neither reads nor writes it. Rows are deleted a day after their last change (housekeeping):
-- the file name is the owner's.
create table statement_import_runs (
    account_id  uuid        not null,
    import_id   uuid        not null,
    file_name   text        not null,
    -- Lines the import writes (Pix credits the owner confirmed, not already imported).
    total       integer     not null,
    -- Lines written so far, and what they were.
    done        integer     not null default 0,
    recorded    integer     not null default 0,
    linked      integer     not null default 0,
    already     integer     not null default 0,
    -- A batch failed after others committed: the rest is not written.
    incomplete  boolean     not null default false,
    started_at  timestamptz not null default now(),
    updated_at  timestamptz not null default now(),
    finished_at timestamptz,
    primary key (account_id, import_id)
);
create index statement_import_runs_updated_idx on statement_import_runs (updated_at);
