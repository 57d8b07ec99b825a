#!/usr/bin/env bash
# Daemon benchmark: add-to-analysis latency, idle CPU, throughput beside the peer (see run.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh
notes="$(scripts/build.sh)"
python3 bench/daemon/run.py "$notes" "$@"
