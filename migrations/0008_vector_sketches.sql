-- A small copy of every stored vector for the scan of search by meaning and related notes: its
-- 384 values as 8-bit integers after their scale (388 bytes against 1,536), in an index that holds
-- all the scan reads (model, note, sketch). The scan reads the index, a fifth of the table's
-- pages, and scores the notes that come closest again from their full vectors, so results are
-- as before. The sketches of vectors stored before this migration are made by it (in code:
-- Migrator.completions); a vector without one is scanned in full.
ALTER TABLE note_vectors ADD COLUMN sketch BLOB;
CREATE INDEX note_vectors_sketches ON note_vectors(model, note_seq, sketch);

-- Which notes have vectors of a model, for the count of those still waiting (every search and
-- related on a terminal asks it): a stored vector is always of a live note's current text (the
-- triggers of migration 6 drop the others), so the count is the live notes less these. Through
-- the table it read every vector's row: 8 ms at 10,000 notes.
CREATE INDEX note_vectors_first_chunks ON note_vectors(model, note_seq) WHERE chunk = 0;
