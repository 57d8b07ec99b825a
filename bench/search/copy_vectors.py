#!/usr/bin/env python3
"""Gives every note of a big notebook a copy of a real vector from a smaller one (chunk 0, under
the big note's own content hash): a scan costs the same whatever the values, and 10,000 notes
need not all be embedded for a latency figure. Used by bench/search and bench/mcp.

    copy_vectors.py BIG.sqlite SAMPLE.sqlite
"""
import sqlite3
import sys

db, sample = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
vectors = sample.execute("SELECT model, vector FROM note_vectors WHERE chunk = 0 ORDER BY note_seq").fetchall()
notes = db.execute("SELECT seq, content_hash FROM notes WHERE deleted IS NULL ORDER BY seq").fetchall()
db.executemany("INSERT INTO note_vectors (note_seq, chunk, content_hash, model, vector) VALUES (?, 0, ?, ?, ?)",
               [(seq, digest) + vectors[i % len(vectors)] for i, (seq, digest) in enumerate(notes)])
db.commit()
