#!/usr/bin/env bash
# Sync benchmark: first sync of 10,000 notes and incremental syncs, beside the git command line.
# bench/sync/run.sh [NOTES [CHANGED]] [--plain-only]   (50000 10 --plain-only: the scale figures)
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh
source scripts/env.sh
swift build -c release --product sync-bench >&2
.build/release/sync-bench "${@:-10000}"
