-- Links between notes: the names a note answers to, and every [[wikilink]], ![[embed]] and
-- relative Markdown link in a note's text with the note it resolves to. Filled by the store
-- (the link parser is Swift): it rebuilds both tables whenever link_index.version differs from
-- the parser's, so notes written before this migration get their links on first open.

-- Where an imported note's file was, relative to the imported folder, without its extension
-- (NULL for notes not imported): a name links may use, and the path `notes export` writes back.
ALTER TABLE notes ADD COLUMN source_path TEXT;

CREATE TABLE note_names (
    key      TEXT NOT NULL,                 -- folded: lowercase, no accents, single spaces
    note_seq INTEGER NOT NULL REFERENCES notes(seq) ON DELETE CASCADE,
    kind     TEXT NOT NULL CHECK (kind IN ('title', 'alias', 'path')),
    name     TEXT NOT NULL,                 -- as written; 'alias' rows are the note's aliases
    PRIMARY KEY (key, note_seq, kind)
) WITHOUT ROWID;
CREATE INDEX note_names_by_note ON note_names(note_seq);

CREATE TABLE links (
    source_seq INTEGER NOT NULL REFERENCES notes(seq) ON DELETE CASCADE,
    position   INTEGER NOT NULL,            -- order in the source's text
    target     TEXT NOT NULL,               -- as written: [[target#heading|text]], or a file path
    markdown   INTEGER NOT NULL CHECK (markdown IN (0, 1)),  -- [text](target.md), not [[target]]
    target_key TEXT NOT NULL,               -- the folded name it looks for
    heading    TEXT,
    embed      INTEGER NOT NULL CHECK (embed IN (0, 1)),
    -- The note it points at; NULL when none answers to it (a broken link).
    target_seq INTEGER REFERENCES notes(seq) ON DELETE SET NULL,
    PRIMARY KEY (source_seq, position)
) WITHOUT ROWID;
CREATE INDEX links_by_target ON links(target_seq);
CREATE INDEX links_by_key ON links(target_key);

CREATE TABLE link_index (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO link_index(id, version) VALUES (1, 0);
