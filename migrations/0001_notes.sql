-- Notes, their tags and full-text search.
-- A deleted note stays as a tombstone (deleted IS NOT NULL, text cleared) so that sync can
-- tell "deleted here" from "never seen here".
CREATE TABLE notes (
    seq      INTEGER PRIMARY KEY,           -- rowid for FTS5; never shown
    id       TEXT NOT NULL UNIQUE,          -- UUIDv7, canonical lowercase dashed form
    title    TEXT NOT NULL,
    body     TEXT NOT NULL,
    content_hash TEXT NOT NULL,             -- fingerprint of title and body (see Note.contentHash)
    created  INTEGER NOT NULL,              -- Unix milliseconds, UTC
    updated  INTEGER NOT NULL,
    deleted  INTEGER                        -- Unix milliseconds of deletion, NULL while alive
);
CREATE INDEX notes_by_updated ON notes(updated) WHERE deleted IS NULL;

CREATE TABLE note_tags (
    note_seq INTEGER NOT NULL REFERENCES notes(seq) ON DELETE CASCADE,
    tag      TEXT NOT NULL,
    PRIMARY KEY (tag, note_seq)
) WITHOUT ROWID;
CREATE INDEX note_tags_by_note ON note_tags(note_seq);

-- External-content FTS5 index over the notes table, kept current by triggers.
CREATE VIRTUAL TABLE notes_fts USING fts5(
    title, body,
    content = 'notes', content_rowid = 'seq',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
    INSERT INTO notes_fts(rowid, title, body) VALUES (new.seq, new.title, new.body);
END;
CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
    INSERT INTO notes_fts(notes_fts, rowid, title, body) VALUES ('delete', old.seq, old.title, old.body);
END;
CREATE TRIGGER notes_fts_update AFTER UPDATE OF title, body ON notes BEGIN
    INSERT INTO notes_fts(notes_fts, rowid, title, body) VALUES ('delete', old.seq, old.title, old.body);
    INSERT INTO notes_fts(rowid, title, body) VALUES (new.seq, new.title, new.body);
END;
