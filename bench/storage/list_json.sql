-- The peer of `notes list --json` (bench/storage/run.sh): the same JSON array, built by SQLite.
SELECT json_group_array(json(note)) FROM (
  SELECT json_object(
    'id', n.id, 'title', n.title, 'body', n.body,
    'tags', json((SELECT json_group_array(tag) FROM (SELECT tag FROM note_tags WHERE note_seq = n.seq ORDER BY tag))),
    'created', CASE WHEN n.created % 1000 = 0 THEN strftime('%Y-%m-%dT%H:%M:%SZ', n.created / 1000, 'unixepoch')
                    ELSE strftime('%Y-%m-%dT%H:%M:%S', n.created / 1000, 'unixepoch') || printf('.%03dZ', n.created % 1000) END,
    'updated', CASE WHEN n.updated % 1000 = 0 THEN strftime('%Y-%m-%dT%H:%M:%SZ', n.updated / 1000, 'unixepoch')
                    ELSE strftime('%Y-%m-%dT%H:%M:%S', n.updated / 1000, 'unixepoch') || printf('.%03dZ', n.updated % 1000) END,
    'analysis', CASE WHEN a.note_seq IS NULL THEN NULL ELSE json_object(
        'category', coalesce(a.user_category, a.category), 'urgency', coalesce(a.user_urgency, a.urgency),
        'tasks', json((SELECT json_group_array(json_object('text', t.text, 'done', json(CASE t.done WHEN 1 THEN 'true' ELSE 'false' END), 'due', t.due))
                       FROM (SELECT * FROM tasks WHERE note_seq = n.seq ORDER BY position) t)),
        'summary', a.summary, 'model', a.model,
        'analyzed_at', CASE WHEN a.analyzed_at % 1000 = 0 THEN strftime('%Y-%m-%dT%H:%M:%SZ', a.analyzed_at / 1000, 'unixepoch')
                        ELSE strftime('%Y-%m-%dT%H:%M:%S', a.analyzed_at / 1000, 'unixepoch') || printf('.%03dZ', a.analyzed_at % 1000) END,
        'stage', a.stage) END) AS note
  FROM notes n LEFT JOIN analyses a ON a.note_seq = n.seq
  WHERE n.deleted IS NULL ORDER BY n.updated DESC, n.id DESC);
