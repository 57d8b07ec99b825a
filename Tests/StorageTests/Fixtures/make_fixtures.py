#!/usr/bin/env python3
"""Writes schema-vN.sqlite: notebooks as notes wrote them at each earlier schema version.

Run once when a migration is added (each new version gets its own fixture, and the old ones
stay as they are). MigrationFixtureTests upgrades every fixture to the latest version.
"""
import os
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")


def fnv1a64(text):
    value = 0xCBF29CE484222325
    for byte in text.encode():
        value ^= byte
        value = (value * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % value


NOTES = [
    ("01a1f000-0000-7000-8000-000000000001", "Dentist appointment", "Dentist appointment\nCall on Monday #health",
     1764000000000, 1764000000000, None, ["health"]),
    ("01a1f000-0000-7000-8000-000000000002", "Quarterly report",
     "Quarterly report\n- [ ] draft numbers\n- [ ] send to Ana #work #q4", 1764000100000, 1764000200000, None, ["q4", "work"]),
    ("01a1f000-0000-7000-8000-000000000003", "Ünïcödé tïtle ✓", "Ünïcödé tïtle ✓\nchâteau, naïve café 日本語のノート",
     1764000300000, 1764000300000, None, []),
    ("01a1f000-0000-7000-8000-000000000004", "", "", 1764000400000, 1764000500000, 1764000500000, []),
]


MIGRATIONS = ["0001_notes.sql", "0002_analysis.sql"]


def make(path, version):
    """A notebook at schema `version`, with the sample notes (and, from version 2, an analysis)."""
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
               "checksum TEXT NOT NULL, applied_at INTEGER NOT NULL)")
    for number, name in enumerate(MIGRATIONS[:version], start=1):
        sql = open(os.path.join(ROOT, "migrations", name), encoding="utf-8").read()
        db.executescript(sql)
        db.execute("INSERT INTO schema_migrations VALUES (?, ?, ?, 1764000000000)", (number, name[5:-4], fnv1a64(sql)))
    for note_id, title, body, created, updated, deleted, tags in NOTES:
        content_hash = fnv1a64(title + "\0" + body) if deleted is None else ""
        db.execute("INSERT INTO notes(id, title, body, content_hash, created, updated, deleted) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (note_id, title, body, content_hash, created, updated, deleted))
        seq = db.execute("SELECT seq FROM notes WHERE id = ?", (note_id,)).fetchone()[0]
        for tag in tags:
            db.execute("INSERT INTO note_tags VALUES (?, ?)", (seq, tag))
    if version >= 2:
        seq, title, body = db.execute("SELECT seq, title, body FROM notes WHERE title = 'Dentist appointment'").fetchone()
        db.execute("INSERT INTO analyses(note_seq, category, urgency, summary, model, analyzed_at, analyzer_version, "
                   "content_hash, user_urgency) VALUES (?, 'health', 3, 'Call the dentist on Monday.', 'fixture', "
                   "1764000000500, 'fixture-1', ?, 4)", (seq, fnv1a64(title + "\0" + body)))
        db.execute("INSERT INTO tasks VALUES (?, 0, 'call the dentist', 1)", (seq,))
        db.execute("UPDATE notes SET analysis_text = 'Call the dentist on Monday.\ncall the dentist' WHERE seq = ?", (seq,))
    db.execute("PRAGMA user_version = %d" % version)
    db.commit()
    db.execute("VACUUM")
    db.close()


if __name__ == "__main__":
    for version in range(1, len(MIGRATIONS) + 1):
        target = os.path.join(HERE, "schema-v%d.sqlite" % version)
        if not os.path.exists(target):  # a fixture, once written, stays as the old version wrote it
            make(target, version)
