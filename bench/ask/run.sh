#!/usr/bin/env bash
# `notes ask` benchmark (issues 17 and 32), one run: the 300-note notebook and 187 questions of
# bench/ask/make_questions.py (fact, date, sum, count, Greek/Finnish/Polish, two-turn, none), each asked of ours (ask-bench: the Notebook layer's flow, as
# `notes ask` runs it) and of llama-cpp-python's chat-completion tool calling, interleaved, with
# the reader model on 2 threads. Rows go to $OUT (default bench/out/ask/results.jsonl, ignored by git: the figures belong in RESULTS.md) as they come;
# `bench/ask/run.py --report FILE` prints the tables of a run cut short. LIMIT=N asks N questions;
# PEER_EVERY=K asks the peer every K-th question only.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh
source scripts/env.sh
swift build -c release --product notes >/dev/null
swift build -c release --product ask-bench >/dev/null
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d /tmp/notes-ask-bench-XXXXXX)"
trap 'rm -rf "$work"' EXIT
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 bench/ask/make_questions.py "$work/questions"
"$NOTES_DEPS/venv/bin/python" bench/ask/run.py "$bin/notes" "$bin/ask-bench" "$work/questions" \
    --out "${OUT:-bench/out/ask/results.jsonl}" ${LIMIT:+--limit "$LIMIT"} ${PEER_EVERY:+--peer-every "$PEER_EVERY"}
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
