-- Half the notes get an analysis with a task, as if the daemon had run, so `notes list` reads
-- analyses and tasks too.
INSERT INTO analyses(note_seq, category, urgency, summary, model, analyzed_at, analyzer_version, content_hash, stage)
  SELECT seq, 'work', 1 + seq % 5, substr(body, 1, 120), 'bench', updated + 1234, 'bench', content_hash, 'quick' FROM notes WHERE seq % 2 = 0;
INSERT INTO tasks(note_seq, position, text, done, due)
  SELECT seq, 0, 'follow up on ' || title, seq % 4 = 0, CASE WHEN seq % 3 = 0 THEN '2026-12-04' END FROM notes WHERE seq % 2 = 0;
