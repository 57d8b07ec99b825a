#!/usr/bin/env bash
# The musician of issue 30, through the CLI as a user would: five band notes set to "work", then
# fourteen corrections of unrelated notes, then five new band notes (one in Greek) analysed. How
# many come out as work: with the vote of the nearest labelled notes (the default), and without it
# (NOTES_EMBEDDING_MODEL=none: the scorer's prompt examples alone, as before the vote), for the
# quick stage (no model) and the full analysis (both models).
#
#   bash bench/analysis/musician.sh [--quick-only]
#
#   NOTES      the binary (default .build/release/notes)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
notes="${NOTES:-$root/.build/release/notes}"
[ -x "$notes" ] || { echo "Error: $notes missing (swift build -c release --product notes)" >&2; exit 1; }
quick_only=false
[ "${1:-}" = --quick-only ] && quick_only=true

band=(
    "Band rehearsal Tuesday 7pm at the studio, we run the whole set twice."
    "Load-in for the Friday show is at 5, the promoter pays after the gig."
    "Finish the chord charts for the new bassist before the weekend."
    "Mastering of the album: send the final mixes to the engineer by the 15th."
    "Agree the setlist for the festival slot with the others, 45 minutes."
)
others=(
    "health|Physio on Monday for the knee, do the stretches every morning."
    "health|Book a flu jab at the pharmacy."
    "finance|Pay the council tax before the end of the month."
    "finance|Transfer 150 to the savings account."
    "finance|Compare electricity tariffs, ours goes up in January."
    "personal|Grandma's 90th birthday lunch on Sunday, bring a cake."
    "personal|Clean the fridge and take the recycling out."
    "personal|Call Sara about the weekend trip to the coast."
    "personal|Buy a present for Leo's wedding."
    "study|Online course on harmony: finish module 3 quiz."
    "study|Read two chapters of the Spanish grammar book."
    "other|Quote: the notes you don't play matter most."
    "other|Lentil soup: onion, carrot, red lentils, cumin, 30 minutes."
    "health|Sleep at least seven hours before the tour."
)
new=(
    "Rehearsal moved to Thursday, everyone learns the two new songs."
    "The club wants our tech rider and stage plot by Monday."
    "Record the guitar overdubs for the EP on Saturday."
    "Ask the drummer whether he can do the gig in Leeds on the 12th."
    "Πρόβα με το συγκρότημα την Τετάρτη, να φέρω τις παρτιτούρες."
)

run() {  # $1: label, rest: environment
    local label="$1"; shift
    local home; home="$(mktemp -d)"
    local ids=()
    for text in "${band[@]}"; do
        id=$(env "$@" NOTES_HOME="$home" "$notes" add "$text")
        env "$@" NOTES_HOME="$home" "$notes" set "$id" --category work 2>/dev/null
    done
    for entry in "${others[@]}"; do
        id=$(env "$@" NOTES_HOME="$home" "$notes" add "${entry#*|}")
        env "$@" NOTES_HOME="$home" "$notes" set "$id" --category "${entry%%|*}" 2>/dev/null
    done
    for text in "${new[@]}"; do ids+=("$(env "$@" NOTES_HOME="$home" "$notes" add "$text")"); done
    env "$@" NOTES_HOME="$home" "$notes" analyze --quick > /dev/null 2>&1
    local quick=0 full=0
    for id in "${ids[@]}"; do
        category=$(env "$@" NOTES_HOME="$home" "$notes" show "$id" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["analysis"]["category"])')
        [ "$category" = work ] && quick=$((quick + 1))
    done
    if ! $quick_only; then
        env "$@" NOTES_HOME="$home" "$notes" analyze "${ids[@]}" > /dev/null 2>&1
        for id in "${ids[@]}"; do
            category=$(env "$@" NOTES_HOME="$home" "$notes" show "$id" --json | python3 -c 'import json, sys; a = json.load(sys.stdin)["analysis"]; print(a["category"], a["stage"])')
            [ "$category" = "work full" ] && full=$((full + 1))
        done
    fi
    echo "$label: new band notes analysed as work: quick stage $quick of ${#new[@]}" $($quick_only || echo "; full analysis $full of ${#new[@]}")
    rm -rf "$home"
}

run "with the vote (default)" NOTES_UNUSED=1
run "without the vote (NOTES_EMBEDDING_MODEL=none)" NOTES_EMBEDDING_MODEL=none
