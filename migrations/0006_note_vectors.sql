-- Sentence vectors of each note (title and body; a long note in several chunks), for search by
-- meaning and related notes. A note's vectors are current while their content_hash is the
-- note's and their model the embedding model's version; otherwise the note waits for them in
-- the quick analysis stage. Stored as BLOBs and scanned (bench/search/RESULTS.md says why).
CREATE TABLE note_vectors (
    note_seq     INTEGER NOT NULL REFERENCES notes(seq) ON DELETE CASCADE,
    chunk        INTEGER NOT NULL,          -- 0 for the note's start, then in order
    content_hash TEXT NOT NULL,             -- the note content these vectors describe
    model        TEXT NOT NULL,             -- the embedding model's version (file, size, chunking)
    vector       BLOB NOT NULL,             -- float32, little-endian, unit length
    PRIMARY KEY (note_seq, chunk)
);

-- A deleted note (a tombstone) keeps no vectors; an edited one loses its old ones at once.
CREATE TRIGGER note_vectors_on_delete AFTER UPDATE OF deleted ON notes WHEN new.deleted IS NOT NULL BEGIN
    DELETE FROM note_vectors WHERE note_seq = new.seq;
END;
CREATE TRIGGER note_vectors_on_edit AFTER UPDATE OF content_hash ON notes WHEN new.content_hash != old.content_hash BEGIN
    DELETE FROM note_vectors WHERE note_seq = new.seq;
END;
