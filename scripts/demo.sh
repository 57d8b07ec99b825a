#!/usr/bin/env bash
# The README's first command: set up (idempotent), build, and run the main job on the embedded
# defaults: a fresh notebook in SQLite, notes analysed by the bundled model, and two machines
# synced through a local bare git repository.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
notes="$(scripts/build.sh)"
demo="$(mktemp -d /tmp/notes-demo-XXXXXX)"
export NOTES_HOME="$demo/laptop"
step() { printf '\n\033[1m--- %s\033[0m\n' "$*" >&2; }

step "notes add (notebook in $NOTES_HOME)"
"$notes" add "Call the dentist tomorrow about the crown #health"
"$notes" add --tag work "Quarterly report
- [ ] draft the numbers by Friday
- [ ] send them to Ana"
"$notes" add "Electricity bill: 84 EUR, due on the 5th. Pay it from the joint account."

step "notes analyze (local model: $("$notes" model --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["path"])'))"
"$notes" analyze
step "notes tasks"
"$notes" tasks
step "notes search dentist"
"$notes" search dentist

step "notes sync: a second machine through a bare repository at $demo/remote.git"
git init --quiet --bare "$demo/remote.git"
"$notes" remote add origin "$demo/remote.git"
"$notes" sync
NOTES_HOME="$demo/desktop" "$notes" remote add origin "$demo/remote.git"
NOTES_HOME="$demo/desktop" "$notes" sync
step "notes list on the second machine"
NOTES_HOME="$demo/desktop" "$notes" list
step "notes status"
"$notes" status
echo >&2
echo "Demo notebooks are in $demo (delete it when done)." >&2
