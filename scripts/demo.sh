#!/usr/bin/env bash
# The README's first command: set up (idempotent), build, and run the main job on the embedded
# defaults: a fresh notebook in SQLite, a few notes added, listed and searched.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
notes="$(scripts/build.sh)"
export NOTES_HOME="${NOTES_HOME:-$(mktemp -d /tmp/notes-demo-XXXXXX)}"
echo "Notebook: $NOTES_HOME" >&2
"$notes" add "Call the dentist tomorrow about the crown #health" >/dev/null
"$notes" add --tag work "Quarterly report
- [ ] draft the numbers by Friday
- [ ] send them to Ana" >/dev/null
"$notes" add "Groceries: milk, eggs, bread #home" >/dev/null
echo "--- notes list" >&2
"$notes" list
echo "--- notes search dentist" >&2
"$notes" search dentist
echo "--- notes status" >&2
"$notes" status
