#!/usr/bin/env bash
# Search benchmark (issue 16), one run: (1) quality on the labelled notebook (recall@5 and MRR for
# words only, meaning only and hybrid); (2) on 10,000 notes, the embedding backlog (notes per
# second) and whole-process latency of `notes search` (hybrid), `--exact`, `notes related`, the
# words-only search as it was before (NOTES_EMBEDDING_MODEL=none runs that code alone) and the
# sqlite3 shell running the same FTS5 query with rank and snippet; (3) vector storage: a scan of
# BLOBs against the sqlite-vec extension's vec0 table on the same vectors, in the same shell; (4) the
# same searches with the daemon running, which embeds the query with its warm model.
# LATENCY_ONLY=1: no quality part, and 1,000 notes embedded for real with their vectors copied
# to the 10,000 (see below).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh
source scripts/env.sh
notes="$(scripts/build.sh)"
work="$(mktemp -d /tmp/notes-search-bench-XXXXXX)"
trap 'rm -rf "$work"' EXIT
runs="${RUNS:-30}"
export NOTES_READER_MODEL=none
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ -z "${LATENCY_ONLY:-}" ]; then
    echo "== quality: labelled notebook"
    python3 bench/search/make_notebook.py "$work/labelled"
    python3 bench/search/eval.py "$notes" "$work/labelled"
fi

echo "== 10,000 notes"
python3 bench/storage/make_corpus.py "$work/corpus" 10000
export NOTES_HOME="$work/home"
"$notes" import "$work/corpus" >/dev/null 2>&1
db="$NOTES_HOME/notes.sqlite"
if [ -n "${LATENCY_ONLY:-}" ]; then
    # Latency only (LATENCY_ONLY=1, no quality part): 1,000 of the notes are embedded for real in a notebook of
    # their own, and each of the 10,000 notes gets a copy of one of those vectors under its own
    # content hash. A scan costs the same whatever the values; the backlog figure is of 1,000.
    python3 -c 'import pathlib, shutil, sys; out = pathlib.Path(sys.argv[2]); out.mkdir()
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.md"))[:1000]: shutil.copy(path, out / path.name)' "$work/corpus" "$work/sample"
    start=$(date +%s%N)
    NOTES_HOME="$work/sample-home" "$notes" import "$work/sample" >/dev/null 2>&1
    NOTES_HOME="$work/sample-home" "$notes" analyze --vectors 2>&1 | tail -1
    backlog_ms=$(( ($(date +%s%N) - start) / 1000000 )); backlog_notes=1000
    python3 bench/search/copy_vectors.py "$db" "$work/sample-home/notes.sqlite"
else
    start=$(date +%s%N)
    "$notes" analyze --vectors 2>&1 | tail -1
    backlog_ms=$(( ($(date +%s%N) - start) / 1000000 )); backlog_notes=10000
fi
sqlite3 "$db" "SELECT 'vectors: ' || count(*) || ' chunks of ' || count(DISTINCT note_seq) || ' notes, ' || (sum(length(vector)) / 1048576) || ' MB' FROM note_vectors;"
echo "embedding backlog: $backlog_notes notes in ${backlog_ms} ms, $(( backlog_notes * 1000 / backlog_ms )) notes/s"
start=$(date +%s%N)
"$notes" analyze --vectors 2>&1 | tail -1
echo "again, nothing changed: $(( ($(date +%s%N) - start) / 1000000 )) ms"

id=$("$notes" search zyxquartz7 --exact --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
peer_sql="SELECT n.id, n.title, snippet(notes_fts, -1, '[', ']', '…', 16) FROM notes_fts JOIN notes n ON n.seq = notes_fts.rowid WHERE notes_fts MATCH '\"zyxquartz7\"' AND n.deleted IS NULL ORDER BY bm25(notes_fts, 10.0, 1.0, 3.0) LIMIT 50;"
hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/search.json" \
    -n "notes search (hybrid)" "$notes search zyxquartz7" \
    -n "notes search (hybrid, two words)" "$notes search 'dentist invoice'" \
    -n "notes search --exact" "$notes search --exact zyxquartz7" \
    -n "words only as before" "env NOTES_EMBEDDING_MODEL=none $notes search zyxquartz7" \
    -n "notes related" "$notes related $id" \
    -n "sqlite3 FTS5 MATCH" "sqlite3 $db \"$peer_sql\"" >/dev/null

# With the daemon running (how notes is meant to be used), the query's vector comes from its warm
# model. It gets no analysis model (NOTES_MODEL points nowhere), so it only waits and answers: the
# figures are of the searches, not of a backlog being analysed beside them.
NOTES_MODEL="$work/no-model.gguf" "$notes" daemon --keep-alive forever 2>"$work/daemon.log" &
daemon=$!
for _ in $(seq 100); do [ -S "$NOTES_HOME/daemon.socket" ] && break; sleep 0.1; done
hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/daemon.json" \
    -n "notes search (hybrid), daemon running" "$notes search zyxquartz7" \
    -n "notes search (hybrid, two words), daemon running" "$notes search 'dentist invoice'" \
    -n "notes search --meaning, daemon running" "$notes search --meaning 'dentist invoice'" \
    -n "notes search --exact, daemon running" "$notes search --exact zyxquartz7" >/dev/null
kill "$daemon"; wait "$daemon" || true

echo "== vector storage: BLOB scan against sqlite-vec (same vectors, same sqlite3 shell)"
"$NOTES_DEPS/venv/bin/pip" install --quiet --target "$work/vec" sqlite-vec==0.1.9
vec="$work/vec/sqlite_vec/vec0"
cp "$db" "$work/vec.sqlite"
start=$(date +%s%N)
sqlite3 "$work/vec.sqlite" ".load $vec" "CREATE VIRTUAL TABLE vec USING vec0(embedding float[384] distance_metric=cosine);" \
    "INSERT INTO vec(rowid, embedding) SELECT rowid, vector FROM note_vectors;"
echo "vec0 table built in $(( ($(date +%s%N) - start) / 1000000 )) ms"
query="(SELECT vector FROM note_vectors WHERE rowid = 4242)"
scan_sql="SELECT note_seq, vec_distance_cosine(vector, $query) AS d FROM note_vectors ORDER BY d LIMIT 100;"
knn="SELECT rowid, distance FROM vec WHERE embedding MATCH $query AND k = 100"
knn_sql="$knn;"
same=$(diff <(sqlite3 "$work/vec.sqlite" ".load $vec" "$scan_sql" | cut -d'|' -f1 | head -20) \
            <(sqlite3 "$work/vec.sqlite" ".load $vec" "SELECT v.note_seq FROM ($knn) k JOIN note_vectors v ON v.rowid = k.rowid ORDER BY k.distance;" | head -20) >/dev/null && echo yes || echo no)
echo "same top 20 from both: $same"
hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/vec.json" \
    -n "sqlite3 BLOB scan" "sqlite3 $work/vec.sqlite \".load $vec\" \"$scan_sql\"" \
    -n "sqlite3 vec0 KNN" "sqlite3 $work/vec.sqlite \".load $vec\" \"$knn_sql\"" \
    -n "sqlite3 load only" "sqlite3 $work/vec.sqlite \".load $vec\" \"SELECT 1;\"" \
    -n "notes search --meaning" "$notes search --meaning 'dentist invoice'" >/dev/null

python3 - "$work/search.json" "$work/vec.json" "$work/daemon.json" <<'PY'
import json, sys
def medians(path):
    return {r["command"]: r["median"] * 1000 for r in json.load(open(path))["results"]}
search, vec, daemon = medians(sys.argv[1]), medians(sys.argv[2]), medians(sys.argv[3])
for name, value in search.items():
    print(f"{name:<34} median {value:7.2f} ms")
for name, value in daemon.items():
    print(f"{name:<48} median {value:7.2f} ms")
print(f"hybrid search with the daemon running: {daemon['notes search (hybrid), daemon running']:.1f} ms, "
      f"{daemon['notes search (hybrid), daemon running'] / search['notes search (hybrid)']:.2f}x the search that loads the model itself")
exact, peer = search["notes search --exact"], search["sqlite3 FTS5 MATCH"]
print(f"--exact against the sqlite3 shell: {exact / peer:.2f}x (target within 2x); hybrid and related under 50 ms: "
      f"{search['notes search (hybrid)']:.1f} / {search['notes search (hybrid, two words)']:.1f} / {search['notes related']:.1f} ms")
for name, value in vec.items():
    print(f"{name:<34} median {value:7.2f} ms")
load = vec["sqlite3 load only"]
print(f"query cost over the shell's start: BLOB scan {vec['sqlite3 BLOB scan'] - load:.2f} ms, vec0 KNN {vec['sqlite3 vec0 KNN'] - load:.2f} ms")
PY
