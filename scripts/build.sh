#!/usr/bin/env bash
# Builds the release binary (Swift runtime linked statically: it halves start-up time).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
swift build -c release --static-swift-stdlib --product notes >&2
echo "$(swift build -c release --static-swift-stdlib --show-bin-path)/notes"
