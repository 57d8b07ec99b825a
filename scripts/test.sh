#!/usr/bin/env bash
# The README's test command: set up (idempotent), build, and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/env.sh
swift build --build-tests
swift test --skip-build --parallel --num-workers 2
