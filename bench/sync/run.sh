#!/usr/bin/env bash
# Sync benchmark: first sync of 10,000 notes and incremental syncs, beside the git command line.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh
source scripts/env.sh
swift build -c release --product sync-bench >&2
.build/release/sync-bench "${1:-10000}"
