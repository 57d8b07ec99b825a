#!/usr/bin/env bash
# Runs the note-analysis benchmark over the dev set: ours (NoteAnalyzer, release build), then the
# peer (llama-cpp-python, JSON-schema constrained, same model and prompt), and scores both. The
# dev set is every bench/analysis/devset/*.jsonl in sorted file-name order (core, long, world),
# concatenated into $OUT/devset.jsonl, which both analysers read. On Gemma 3 270M the peer takes
# about 8 s per note (17 minutes for the 136 core notes).
#
#   bash bench/analysis/run.sh [--limit N] [--resume]
#
# --resume keeps the notes already in $OUT/peer.jsonl (an interrupted run) and does the rest.
#
#   NOTES_DEPS   where the venv and default model live (default /opt/notes-deps)
#   NOTES_MODEL  GGUF to use (default $NOTES_DEPS/default-model.gguf)
#   OUT          output folder (default bench/out/analysis, which git ignores)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
NOTES_DEPS="${NOTES_DEPS:-/opt/notes-deps}"
export NOTES_MODEL="${NOTES_MODEL:-$NOTES_DEPS/default-model.gguf}"
OUT="${OUT:-$root/bench/out/analysis}"
python="$NOTES_DEPS/venv/bin/python"

peer_args=()
subset_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --limit) peer_args+=(--limit "$2"); subset_args=(--subset); shift 2 ;;
        --resume) peer_args+=(--resume); shift ;;
        *) echo "usage: $0 [--limit N] [--resume]" >&2; exit 2 ;;
    esac
done

[ -x "$python" ] || { echo "Error: $python missing; run scripts/setup.sh first" >&2; exit 1; }
[ -f "$NOTES_MODEL" ] || { echo "Error: model $NOTES_MODEL missing; run scripts/setup.sh first" >&2; exit 1; }
mkdir -p "$OUT"
case " ${peer_args[*]-} " in *" --resume "*) ;; *) : > "$OUT/peer.log" ;; esac

python3 "$here/score.py" --self-test

devset="$OUT/devset.jsonl"
shopt -s nullglob
parts=("$here"/devset/*.jsonl)
shopt -u nullglob
[ ${#parts[@]} -gt 0 ] || { echo "Error: no $here/devset/*.jsonl" >&2; exit 1; }
# One line per note: a part whose last line lacks its newline must not run into the next part.
for part in "${parts[@]}"; do sed -e '$a\' "$part"; done > "$devset"
echo "== dev set: $(grep -c . "$devset") notes from $(cd "$here/devset" && echo *.jsonl)"

echo "== ours: NoteAnalyzer (guided generation in Swift), model $(basename "$(readlink -f "$NOTES_MODEL")")"
source "$root/scripts/env.sh"
(cd "$root" && swift build -c release --product analysis-eval >&2)
limit_args=()
for ((i = 0; i < ${#peer_args[@]}; i++)); do [ "${peer_args[$i]}" = --limit ] && limit_args=(--limit "${peer_args[$((i + 1))]}"); done
"$root/.build/release/analysis-eval" "$devset" "$OUT/ours.jsonl" "${limit_args[@]}"
python3 "$here/score.py" "${subset_args[@]}" --devset "$devset" "$OUT/ours.jsonl"
python3 "$here/score.py" "${subset_args[@]}" --devset "$devset" --json "$OUT/ours.jsonl" > "$OUT/ours.score.json"

echo "== peer: llama-cpp-python JSON schema, model $(basename "$(readlink -f "$NOTES_MODEL")")"
"$python" "$here/peer.py" "${peer_args[@]}" --devset "$devset" --out "$OUT/peer.jsonl" 2>> "$OUT/peer.log"
tail -n 1 "$OUT/peer.log"
python3 "$here/score.py" "${subset_args[@]}" --devset "$devset" "$OUT/peer.jsonl"
python3 "$here/score.py" "${subset_args[@]}" --devset "$devset" --json "$OUT/peer.jsonl" > "$OUT/peer.score.json"

# The reading model's own peer: llama-cpp-python's JSON-schema path with NoteReader's prompt, on
# the first $PEER_READER_LIMIT held-out notes (about half a minute each on 2 cores).
reader="${NOTES_READER_MODEL:-$NOTES_DEPS/reader-model.gguf}"
if [ "$reader" != none ] && [ -f "$reader" ]; then
    held="$OUT/held-out.jsonl"
    python3 -c 'import json, sys; sys.path.insert(0, sys.argv[1]); from score import held_out
for line in open(sys.argv[2], encoding="utf-8"):
    if line.strip() and held_out(json.loads(line)["id"]): print(line, end="")' "$here" "$devset" > "$held"
    echo "== reader peer: llama-cpp-python JSON schema, model $(basename "$(readlink -f "$reader")"), ${PEER_READER_LIMIT:-30} held-out notes"
    "$python" "$here/peer_reader.py" --devset "$held" --out "$OUT/peer-reader.jsonl" --limit "${PEER_READER_LIMIT:-30}" --model "$reader" 2>> "$OUT/peer.log"
    python3 "$here/score.py" --subset --devset "$held" "$OUT/peer-reader.jsonl"
fi
