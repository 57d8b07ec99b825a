#!/usr/bin/env bash
# notes mcp benchmark (issue 33), one run on 10,000 notes: a client's `search` round trip through
# the official Python SDK's stdio client (the server started once, as a client keeps it), beside
# `notes search` run as a process for each query in the same run, both hybrid (words and meaning)
# and by words only; and the `tools/list` round trip. The notebook: bench/storage's generated
# corpus, with 1,000 of its notes embedded for real and their vectors copied to the rest, as
# bench/search's LATENCY_ONLY run does. RUNS=N queries each (default 40).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh
source scripts/env.sh
notes="$(scripts/build.sh)"
work="$(mktemp -d /tmp/notes-mcp-bench-XXXXXX)"
trap 'rm -rf "$work"' EXIT
export NOTES_READER_MODEL=none
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 bench/storage/make_corpus.py "$work/corpus" 10000
export NOTES_HOME="$work/home"
"$notes" import "$work/corpus" >/dev/null 2>&1
python3 -c 'import pathlib, shutil, sys; out = pathlib.Path(sys.argv[2]); out.mkdir()
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.md"))[:1000]: shutil.copy(path, out / path.name)' "$work/corpus" "$work/sample"
NOTES_HOME="$work/sample-home" "$notes" import "$work/sample" >/dev/null 2>&1
NOTES_HOME="$work/sample-home" "$notes" analyze --vectors >/dev/null 2>&1
python3 bench/search/copy_vectors.py "$NOTES_HOME/notes.sqlite" "$work/sample-home/notes.sqlite"
"$NOTES_DEPS/venv/bin/python" bench/mcp/run.py "$notes" "$NOTES_HOME" "${RUNS:-40}"
