#!/usr/bin/env bash
# Quick-stage latency of `notes daemon` in each of its states: the time from `notes add`
# returning to the note's quick analysis being in the database (polled with sqlite3 every
# 10 ms), with the default models, a fresh NOTES_HOME a round. Prints one row a state: the
# median and the worst of the rounds, in ms.
#
#   bench/daemon/quick-stage.sh [notes binary] [rounds]   (default .build/release/notes, 3)
#
# States: cold (added at once after the daemon starts), prewarm (added while the model loads),
# full (added while another note's full analysis runs), asleep (the models unloaded after
# --keep-alive), waking (added right after a note that woke them).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/env.sh
NOTES="$(realpath "${1:-.build/release/notes}")"
ROUNDS="${2:-3}"
WORK="$(mktemp -d)"
trap 'kill "$DAEMON" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
DAEMON=""

now_ms() { date +%s%3N; }

# Adds a note, prints the ms from `notes add` returning to its analysis (any stage) stored.
timed_add() {
    local id start
    id="$("$NOTES" add "$1")"
    start="$(now_ms)"
    while true; do
        local found
        found="$(sqlite3 "file:$NOTES_HOME/notes.sqlite?mode=ro" -cmd ".timeout 1000" \
            "SELECT count(*) FROM analyses a JOIN notes n ON n.seq = a.note_seq WHERE n.id = '$id' AND a.content_hash = n.content_hash" 2>/dev/null || echo 0)"
        [ "$found" = "1" ] && break
        [ $(( $(now_ms) - start )) -gt 600000 ] && { echo 600000; return; }
        sleep 0.01
    done
    echo $(( $(now_ms) - start ))
}

wait_log() { # pattern [timeout s]
    local deadline=$(( $(date +%s) + ${2:-120} ))
    until grep -q -- "$1" "$NOTES_HOME/daemon.log"; do
        [ "$(date +%s)" -gt "$deadline" ] && { echo "timed out waiting for '$1'" >&2; return 1; }
        sleep 0.05
    done
}

LONG="Kitchen renovation plan. $(for i in $(seq 1 40); do printf 'Call the plumber about the sink on Friday, order tiles number %s, and ask Maria to check the invoice before the payment. ' "$i"; done)"

declare -A RESULTS
measure() { # state text
    local ms
    ms="$(timed_add "$2")"
    RESULTS[$1]+="$ms "
    echo "round $round: $1 $ms ms" >&2
}
for round in $(seq 1 "$ROUNDS"); do
    export NOTES_HOME="$WORK/home$round"
    mkdir -p "$NOTES_HOME"
    "$NOTES" list >/dev/null # creates the notebook, so that the daemon's start is the daemon's alone
    "$NOTES" daemon --keep-alive 8s 2>"$NOTES_HOME/daemon.log" &
    DAEMON=$!
    measure cold "Dentist tomorrow at 17:30, call to confirm"
    sleep 1
    grep -q "model ready" "$NOTES_HOME/daemon.log" && echo "round $round: the model was ready before the prewarm add" >&2
    measure prewarm "Pay the electricity bill by Friday"
    wait_log "model ready" 600
    # Let the first two notes' full analyses finish, then start a long one.
    until [ "$("$NOTES" daemon status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pending"])')" = "0" ]; do sleep 0.2; done
    full_before="$(grep -c 'analysing [^ ]*$' "$NOTES_HOME/daemon.log" || true)"
    "$NOTES" add "$LONG" >/dev/null
    until [ "$(grep -c 'analysing [^ ]*$' "$NOTES_HOME/daemon.log" || true)" -gt "$full_before" ]; do sleep 0.05; done
    sleep 1
    measure full "Buy milk and bread on the way home"
    wait_log "started afresh without the models" 900
    sleep 0.5
    measure asleep "Renew the passport next month, urgent"
    measure waking "Book the car service for Tuesday"
    kill "$DAEMON"; wait "$DAEMON" 2>/dev/null || true
done

printf '%-10s %10s %10s   %s\n' state median_ms worst_ms rounds
for state in cold prewarm full asleep waking; do
    read -r -a values <<<"${RESULTS[$state]}"
    sorted=($(printf '%s\n' "${values[@]}" | sort -n))
    printf '%-10s %10s %10s   %s\n' "$state" "${sorted[$(( ${#sorted[@]} / 2 ))]}" "${sorted[-1]}" "${values[*]}"
done
