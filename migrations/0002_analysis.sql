-- Analyses by the local model, their tasks, and search over summaries and tasks.

CREATE TABLE analyses (
    note_seq         INTEGER PRIMARY KEY REFERENCES notes(seq) ON DELETE CASCADE,
    category         TEXT NOT NULL CHECK (category IN ('work', 'personal', 'study', 'health', 'finance', 'other')),
    urgency          INTEGER NOT NULL CHECK (urgency BETWEEN 1 AND 5),
    summary          TEXT NOT NULL,
    model            TEXT NOT NULL,
    analyzed_at      INTEGER NOT NULL,
    analyzer_version TEXT NOT NULL,
    content_hash     TEXT NOT NULL,         -- the note content this analysis describes
    -- The user's corrections win over every later analysis (NULL: no correction).
    user_category    TEXT CHECK (user_category IN ('work', 'personal', 'study', 'health', 'finance', 'other')),
    user_urgency     INTEGER CHECK (user_urgency BETWEEN 1 AND 5)
);
CREATE INDEX analyses_by_category ON analyses(category);

CREATE TABLE tasks (
    note_seq INTEGER NOT NULL REFERENCES analyses(note_seq) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    text     TEXT NOT NULL,
    done     INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
    PRIMARY KEY (note_seq, position)
) WITHOUT ROWID;

-- Summary and task text, denormalised into notes so that one external-content index covers
-- everything a search should find.
ALTER TABLE notes ADD COLUMN analysis_text TEXT NOT NULL DEFAULT '';

DROP TRIGGER notes_fts_insert;
DROP TRIGGER notes_fts_delete;
DROP TRIGGER notes_fts_update;
DROP TABLE notes_fts;

CREATE VIRTUAL TABLE notes_fts USING fts5(
    title, body, analysis_text,
    content = 'notes', content_rowid = 'seq',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO notes_fts(notes_fts) VALUES ('rebuild');

CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
    INSERT INTO notes_fts(rowid, title, body, analysis_text) VALUES (new.seq, new.title, new.body, new.analysis_text);
END;
CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
    INSERT INTO notes_fts(notes_fts, rowid, title, body, analysis_text) VALUES ('delete', old.seq, old.title, old.body, old.analysis_text);
END;
CREATE TRIGGER notes_fts_update AFTER UPDATE OF title, body, analysis_text ON notes BEGIN
    INSERT INTO notes_fts(notes_fts, rowid, title, body, analysis_text) VALUES ('delete', old.seq, old.title, old.body, old.analysis_text);
    INSERT INTO notes_fts(rowid, title, body, analysis_text) VALUES (new.seq, new.title, new.body, new.analysis_text);
END;
