-- The handles people type are the ends of ids (`NoteHandle`: the last six hex digits, more when
-- two notes share them). This index finds a note by its id's last six characters, so a handle
-- is resolved and a search's handles are checked without reading every id: at 10,000 notes the
-- scan took 3 to 9 ms, the index 0.02 ms.
CREATE INDEX notes_by_id_end ON notes(substr(id, -6));
