-- Bookkeeping for git sync: a change counter over the notebook and the last synced commit.

-- Grows with every write to a note, a tombstone, an analysis, a task mark or a correction;
-- notes.version is the counter's value at the note's last write. Sync exports what is newer
-- than its checkpoint.
CREATE TABLE notebook_version (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    value INTEGER NOT NULL
);
INSERT INTO notebook_version(id, value) VALUES (1, 0);

ALTER TABLE notes ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
CREATE INDEX notes_by_version ON notes(version);

-- Small facts: the last synced commit and the version right after importing it.
CREATE TABLE sync_state (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
