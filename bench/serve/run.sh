#!/usr/bin/env bash
# `notes serve` at 10,000 notes (issue 35): the notes page and a search page, fetched by curl,
# beside `notes list` and `notes search` as processes, in the same run (hyperfine medians; both
# sides are whole processes, curl's start included on the page's side). Target: a page within
# 2x its command's time. Also the server's start: from exec to the printed address; and the ask
# page on the reading model: its first word and whole answer beside `notes ask`'s whole answer,
# and the notes page's time while an answer is being written.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh
source scripts/env.sh
notes="$(scripts/build.sh)"
work="$(mktemp -d /tmp/notes-serve-bench-XXXXXX)"
port=$((20000 + RANDOM % 20000))
trap 'kill "${server:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
runs="${RUNS:-20}"
export NOTES_HOME="$work/home" NOTES_READER_MODEL=none
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 bench/storage/make_corpus.py "$work/corpus" 10000
"$notes" import "$work/corpus" >/dev/null 2>&1
"$notes" analyze --quick >/dev/null 2>&1
echo "notes: $("$notes" list | wc -l)"

start=$(date +%s%N)
"$notes" serve --port "$port" 2>"$work/serve.log" &
server=$!
until grep -q "token=" "$work/serve.log" 2>/dev/null; do sleep 0.01; done
echo "serve: address printed after $(( ($(date +%s%N) - start) / 1000000 )) ms"
token=$(grep -o 'token=[0-9a-f]*' "$work/serve.log" | cut -d= -f2)
cookie="Cookie: notes_token_$port=$token"
page() { echo "curl -sf -o /dev/null -H '$cookie' 'http://127.0.0.1:$port$1'"; }
# Warm both: the page's first search loads the embedding model once, as the daemon's would.
eval "$(page /search?q=dentist)"

hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/list.json" \
    -n "notes list" "$notes list" -n "page /" "$(page /)" >/dev/null
hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/search.json" \
    -n "notes search dentist" "$notes search dentist" -n "page /search?q=dentist" "$(page '/search?q=dentist')" >/dev/null
hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/note.json" \
    -n "notes show" "$notes show $("$notes" list --json -n 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')" \
    -n "page /note" "$(page "/note/$("$notes" list --json -n 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')")" >/dev/null
python3 - "$work" <<'PY'
import json, sys
for name in ("list", "search", "note"):
    results = json.load(open(f"{sys.argv[1]}/{name}.json"))["results"]
    command, page = (r["median"] * 1000 for r in results)
    print(f"{results[0]['command']:<24} median {command:8.2f} ms; {results[1]['command']:<26} {page:8.2f} ms; page/command {page / command:.2f}x (target <= 2x)")
PY
kill -TERM "$server"
wait "$server" && echo "serve: stopped cleanly on SIGTERM"

# Ask, on the reading model (NOTES_READER_MODEL, else the default one), warmed once each side.
question="When is the dentist appointment?"
reader="${BENCH_READER_MODEL:-$NOTES_DEPS/reader-model.gguf}"
NOTES_READER_MODEL="$reader" "$notes" serve --port "$port" 2>"$work/serve.log" &
server=$!
until grep -q "token=" "$work/serve.log" 2>/dev/null; do sleep 0.01; done
token=$(grep -o 'token=[0-9a-f]*' "$work/serve.log" | cut -d= -f2)
curl -sf -o /dev/null -H "Cookie: notes_token_$port=$token" "http://127.0.0.1:$port/ask?q=warm"
python3 bench/serve/ask_stream.py "$port" "$token" "$question"
start=$(date +%s%N)
NOTES_READER_MODEL="$reader" "$notes" ask "$question" >/dev/null
echo "notes ask (a process, loading the model): whole answer $(( ($(date +%s%N) - start) / 1000000 )) ms"
kill -TERM "$server"
wait "$server" || true
