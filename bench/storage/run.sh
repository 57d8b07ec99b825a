#!/usr/bin/env bash
# Storage and CLI benchmark (issue 2): import, search and add on a 10,000-note notebook, each
# beside the sqlite3 shell doing the equivalent work on the same data, in the same run.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh
source scripts/env.sh
notes="$(scripts/build.sh)"
work="$(mktemp -d /tmp/notes-bench-XXXXXX)"
trap 'rm -rf "$work"' EXIT
export NOTES_HOME="$work/home"
runs="${RUNS:-40}"

python3 bench/storage/make_corpus.py "$work/corpus" 10000

echo "== import of 10,000 Markdown files"
start=$(date +%s%N)
"$notes" import "$work/corpus" 2>&1 | tail -1
import_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "notes import: ${import_ms} ms (target < 5000 ms)"

db="$NOTES_HOME/notes.sqlite"
# The peer's query: the same FTS5 MATCH, join, snippet and bm25 ranking on the same database.
peer_sql="SELECT n.id, n.title, snippet(notes_fts, -1, '[', ']', '…', 16) FROM notes_fts JOIN notes n ON n.seq = notes_fts.rowid WHERE notes_fts MATCH '\"zyxquartz7\"' AND n.deleted IS NULL ORDER BY bm25(notes_fts, 10.0, 1.0, 3.0) LIMIT 50;"
found=$("$notes" search zyxquartz7 --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
planted=0
for k in 0 1 2 3 4 5 6 7 8 9; do
    n=$("$notes" search "zyxquartz$k" --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
    planted=$((planted + n))
done
echo "planted rare words found: $planted of 10 (zyxquartz7: $found)"

hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/search.json" \
    -n "notes search" "$notes search zyxquartz7" \
    -n "sqlite3 FTS5 MATCH" "sqlite3 $db \"$peer_sql\"" >/dev/null

cp "$db" "$work/peer.sqlite"
hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/add.json" \
    -n "notes add" "$notes add benchmark note with a few words" \
    -n "sqlite3 insert" "sqlite3 $work/peer.sqlite \"INSERT INTO notes(id, title, body, content_hash, created, updated) VALUES (lower(hex(randomblob(16))), 'benchmark', 'benchmark note with a few words', '', 0, 0);\"" >/dev/null

python3 - "$work/search.json" "$work/add.json" <<'PY'
import json, sys
def medians(path):
    return {r["command"]: r["median"] * 1000 for r in json.load(open(path))["results"]}
search = medians(sys.argv[1]); add = medians(sys.argv[2])
s, sp = search["notes search"], search["sqlite3 FTS5 MATCH"]
a, ap = add["notes add"], add["sqlite3 insert"]
print(f"notes search median {s:.2f} ms; sqlite3 shell {sp:.2f} ms; ratio {s/sp:.2f}x (target <= 2x and < 25 ms)")
print(f"notes add    median {a:.2f} ms; sqlite3 shell {ap:.2f} ms; ratio {a/ap:.2f}x (target <= 2x and < 20 ms)")
PY
if command -v nb >/dev/null; then echo "nb found: not yet measured"; else echo "nb: not installable here (not in Debian's archive or PyPI); not measured"; fi
