#!/usr/bin/env bash
# Batches and copies on a backlog of short notes (issue 12): analysis-eval reads the same notes
# three ways, interleaved chunk by chunk so that a shared machine's load falls on all three:
#   plain    one note at a time, no copies (--batch 1)
#   copies   one note at a time, drafting from the note (--batch 1 --copies)
#   batched  NOTES_BACKLOG_BATCH notes at once (default 4, the product's default), a finished note's
#            place taken by the next, without copies (the product's default)
# then backlog.py prints notes per minute, generation tokens per second and the agreement of
# category and tasks note for note (the first 30 notes are the dev set's first 30).
# COUNT notes (default 200) in chunks of CHUNK (default 20); NOTES_READER_MODEL picks the reader;
# MODES (default "plain copies batched") which of them run. After each chunk read plain,
# raw_reader.py does the same token work on raw llama.cpp (NO_RAW=1 skips it): the floor for one
# note at a time and for a batch, printed beside ours.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/env.sh
swift build -c release --product analysis-eval >&2
out="${NOTES_BENCH_OUT:-bench/ai/out-backlog}"
count="${COUNT:-200}"
chunk="${CHUNK:-20}"
batch="${NOTES_BACKLOG_BATCH:-4}"
rm -rf "$out" && mkdir -p "$out"
python3 bench/ai/backlog.py notes "$count" > "$out/notes.jsonl"
uptime > "$out/load.txt"
for start in $(seq 0 "$chunk" $((count - 1))); do
    sed -n "$((start + 1)),$((start + chunk))p" "$out/notes.jsonl" > "$out/chunk.jsonl"
    for mode in ${MODES:-plain copies batched}; do
        case $mode in
            plain) flags=(--batch 1) ;;
            copies) flags=(--batch 1 --copies) ;;
            batched) flags=(--batch "$batch") ;;
        esac
        ./.build/release/analysis-eval "$out/chunk.jsonl" "$out/$mode-$start.jsonl" "${flags[@]}" 2> "$out/$mode-$start.log"
        if [ "$mode" = plain ] && [ -z "${NO_RAW:-}" ]; then
            # The same token work on raw llama.cpp, one at a time and NOTES_BACKLOG_BATCH at once.
            "$NOTES_DEPS/venv/bin/python" bench/ai/raw_reader.py "${NOTES_READER_MODEL:-$NOTES_DEPS/reader-model.gguf}" \
                "$out/plain-$start.jsonl" --batch "$batch" > "$out/raw-$start.json"
        fi
    done
    uptime >> "$out/load.txt"
done
python3 bench/ai/backlog.py report "$out"
