#!/usr/bin/env python3
"""Gives every note of a big notebook a copy of a real vector from a smaller one (chunk 0, under
the big note's own content hash): a scan costs the same whatever the values, and 10,000 notes
need not all be embedded for a latency figure. Used by bench/search and bench/mcp.

    copy_vectors.py BIG.sqlite SAMPLE.sqlite
"""
import sqlite3
import sys

db, sample = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
# With their sketches (migration 8), which the scan reads, when both notebooks have them.
columns = "model, vector, sketch" if all(
    any(c[1] == "sketch" for c in d.execute("PRAGMA table_info(note_vectors)")) for d in (db, sample)) else "model, vector"
vectors = sample.execute(f"SELECT {columns} FROM note_vectors WHERE chunk = 0 ORDER BY note_seq").fetchall()
notes = db.execute("SELECT seq, content_hash FROM notes WHERE deleted IS NULL ORDER BY seq").fetchall()
marks = ", ".join("?" * (2 + len(vectors[0])))
db.executemany(f"INSERT INTO note_vectors (note_seq, content_hash, {columns}, chunk) VALUES ({marks}, 0)",
               [(seq, digest) + vectors[i % len(vectors)] for i, (seq, digest) in enumerate(notes)])
db.commit()
