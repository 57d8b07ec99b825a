#!/usr/bin/env bash
# Runs the AI benchmarks and the peer (llama-cpp-python) in the same run, on the same model,
# prompts and thread count, and prints the figures side by side. One run; see RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/env.sh
swift build -c release --product ai-bench >&2
out=bench/ai/out
mkdir -p "$out"
rm -rf /tmp/notes-ai-bench-cache
./.build/release/ai-bench bench/ai > "$out/swift.txt"
# A new process: the prewarmed prefix saved by the run above is restored from disk.
./.build/release/ai-bench bench/ai --cold > "$out/swift-cold.txt"
"${NOTES_DEPS:-/opt/notes-deps}/venv/bin/python" bench/ai/peer.py bench/ai > "$out/peer.txt"
grep -h -E '^(output|invalid|peer_output|peer_invalid) ' "$out/swift.txt" "$out/peer.txt" || true
python3 bench/ai/report.py "$out"
