#!/usr/bin/env bash
# The two embedding models side by side, one run (issue 30): an import's backlog of 1,000 notes
# (notes per second), and on 10,000 notes (the 1,000 real vectors copied to the rest, as run.sh's
# LATENCY_ONLY does) whole-process `notes search` latency with no daemon, for each model, beside
# `--exact` and the sqlite3 shell's FTS5 query; then the same searches with the daemon running.
#
#   bash bench/search/models.sh          RUNS=N for hyperfine's runs (default 30)
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh
source scripts/env.sh
notes="$(scripts/build.sh)"
work="$(mktemp -d /tmp/notes-models-bench-XXXXXX)"
trap 'rm -rf "$work"' EXIT
runs="${RUNS:-30}"
deps="${NOTES_DEPS:-/opt/notes-deps}"
export NOTES_READER_MODEL=none
declare -A models=([e5]="$deps/e5/multilingual-e5-small-q4_0.gguf" [minilm]="$deps/embedding-model.gguf")
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 bench/storage/make_corpus.py "$work/corpus" 10000 >/dev/null
python3 -c 'import pathlib, shutil, sys; out = pathlib.Path(sys.argv[2]); out.mkdir()
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.md"))[:1000]: shutil.copy(path, out / path.name)' "$work/corpus" "$work/sample"
NOTES_HOME="$work/plain" "$notes" import "$work/corpus" >/dev/null 2>&1
for name in e5 minilm; do
    export NOTES_EMBEDDING_MODEL="${models[$name]}"
    NOTES_HOME="$work/sample-$name" "$notes" import "$work/sample" >/dev/null 2>&1
    start=$(date +%s%N)
    NOTES_HOME="$work/sample-$name" "$notes" analyze --vectors >/dev/null 2>&1
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "backlog $name: 1000 notes in $ms ms, $(( 1000000 / ms )) notes/s"
    cp -r "$work/plain" "$work/home-$name"
    python3 bench/search/copy_vectors.py "$work/home-$name/notes.sqlite" "$work/sample-$name/notes.sqlite"
done
unset NOTES_EMBEDDING_MODEL

db="$work/home-e5/notes.sqlite"
peer_sql="SELECT n.id, n.title, snippet(notes_fts, -1, '[', ']', '…', 16) FROM notes_fts JOIN notes n ON n.seq = notes_fts.rowid WHERE notes_fts MATCH '\"dentist\" \"invoice\"' AND n.deleted IS NULL ORDER BY bm25(notes_fts, 10.0, 1.0, 3.0) LIMIT 50;"
search() { echo "env NOTES_HOME=$work/home-$1 NOTES_EMBEDDING_MODEL=${models[$1]} $notes search ${2-} 'dentist invoice'"; }
hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/cold.json" \
    -n "e5 hybrid" "$(search e5)" -n "minilm hybrid" "$(search minilm)" \
    -n "e5 meaning" "$(search e5 --meaning)" -n "minilm meaning" "$(search minilm --meaning)" \
    -n "words (exact)" "$(search e5 --exact)" -n "sqlite3 FTS5 MATCH" "sqlite3 $db \"$peer_sql\"" >/dev/null

for name in e5 minilm; do
    NOTES_HOME="$work/home-$name" NOTES_EMBEDDING_MODEL="${models[$name]}" NOTES_MODEL="$work/no-model.gguf" \
        "$notes" daemon --keep-alive forever 2>"$work/daemon-$name.log" &
    daemon=$!
    for _ in $(seq 100); do [ -S "$work/home-$name/daemon.socket" ] && break; sleep 0.1; done
    eval "$(search "$name")" >/dev/null   # the daemon's first query loads its model
    hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/daemon-$name.json" -n "$name hybrid, daemon running" "$(search "$name")" >/dev/null
    kill "$daemon"; wait "$daemon" || true
done

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
medians = {}
for part in ("cold", "daemon-e5", "daemon-minilm"):
    medians.update({r["command"]: r["median"] * 1000 for r in json.load(open(f"{work}/{part}.json"))["results"]})
for name, value in medians.items():
    print(f"{name:<28} median {value:7.2f} ms")
peer = medians["sqlite3 FTS5 MATCH"]
for name in ("e5 hybrid", "minilm hybrid", "words (exact)"):
    print(f"{name} against the sqlite3 shell: {medians[name] / peer:.2f}x")
print(f"e5 against minilm, cold hybrid: {medians['e5 hybrid'] / medians['minilm hybrid']:.2f}x; "
      f"with the daemon: {medians['e5 hybrid, daemon running'] / medians['minilm hybrid, daemon running']:.2f}x")
PY
