#!/usr/bin/env bash
# Runs the AI benchmarks and the peer (llama-cpp-python) in the same run, on the same model,
# prompts and thread count, and prints the figures side by side. The machine is shared, so the
# run alternates ours and the peer's ROUNDS times (default 3) and reports medians per figure.
# NOTES_BENCH_THREADS (default 2) sets both sides' llama.cpp threads; NOTES_BENCH_OUT the output.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/env.sh
swift build -c release --product ai-bench >&2
out="${NOTES_BENCH_OUT:-bench/ai/out}"
export NOTES_BENCH_OUT="$out"
rounds="${ROUNDS:-3}"
rm -rf "$out" && mkdir -p "$out"
uptime > "$out/load.txt"
for round in $(seq 1 "$rounds"); do
    rm -rf /tmp/notes-ai-bench-cache
    ./.build/release/ai-bench bench/ai > "$out/swift-$round.txt"
    # A new process: the prewarmed prefix saved by the run above is restored from disk.
    ./.build/release/ai-bench bench/ai --cold > "$out/swift-cold-$round.txt"
    "${NOTES_DEPS:-/opt/notes-deps}/venv/bin/python" bench/ai/peer.py bench/ai > "$out/peer-$round.txt"
    uptime >> "$out/load.txt"
done
grep -h -E '^(output|invalid|peer_output|peer_invalid) ' "$out/swift-1.txt" "$out/peer-1.txt" || true
echo "load during the run:"; cat "$out/load.txt"
python3 bench/ai/report.py "$out"
