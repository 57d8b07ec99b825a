-- Tasks carry the day they are due (ISO 8601 date, from the note's words; NULL: no date), and
-- an analysis says how far it went: 'quick' (rules and the category, no generation) or 'full'
-- (the model read the note). Analyses stored before this were the only kind there was: full.

ALTER TABLE tasks ADD COLUMN due TEXT CHECK (due IS NULL OR due GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]');
ALTER TABLE analyses ADD COLUMN stage TEXT NOT NULL DEFAULT 'full' CHECK (stage IN ('quick', 'full'));
CREATE INDEX tasks_by_due ON tasks(due) WHERE due IS NOT NULL;
