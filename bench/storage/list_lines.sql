-- The peer of `notes list`: the same lines (the id's last 6 digits for the handle, which is
-- longer only for the few notes whose last 6 digits another note shares).
SELECT substr(replace(n.id, '-', ''), -6) || '  ' || strftime('%Y-%m-%d', n.updated / 1000, 'unixepoch') || '  ' || n.title
    || coalesce('  ' || (SELECT group_concat('#' || tag, ' ') FROM (SELECT tag FROM note_tags WHERE note_seq = n.seq ORDER BY tag)), '')
    || coalesce('  [' || coalesce(a.user_category, a.category) || ' ' || coalesce(a.user_urgency, a.urgency) || ']', '')
FROM notes n LEFT JOIN analyses a ON a.note_seq = n.seq
WHERE n.deleted IS NULL ORDER BY n.updated DESC, n.id DESC;
