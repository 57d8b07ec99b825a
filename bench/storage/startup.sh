#!/usr/bin/env bash
# Start-up before and after a change (issue 13): `notes --help` and `notes add`, this tree's
# release build beside an older binary (BASELINE=/path/to/notes), in alternating hyperfine
# rounds so that a busy machine weighs on both alike. Prints the median wall time and the CPU
# time (user + system) of each, and their ratios (target: within 5%).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/env.sh
: "${BASELINE:?set BASELINE to the binary to compare with (for example a release build of main)}"
notes="$(scripts/build.sh)"
work="$(mktemp -d /tmp/notes-startup-XXXXXX)"
trap 'rm -rf "$work"' EXIT
rounds="${ROUNDS:-4}"
NOTES_HOME="$work/base" "$BASELINE" add first >/dev/null
NOTES_HOME="$work/new" "$notes" add first >/dev/null
for round in $(seq "$rounds"); do
    order=(base new)
    if (( round % 2 == 0 )); then order=(new base); fi
    help=() add=()
    for which in "${order[@]}"; do
        binary="$notes"
        if [[ $which == base ]]; then binary="$BASELINE"; fi
        help+=(-n "$which" "$binary --help")
        add+=(-n "$which" "env NOTES_HOME=$work/$which $binary add benchmark note with a few words")
    done
    hyperfine -N --warmup 5 --runs 60 --export-json "$work/help-$round.json" "${help[@]}" >/dev/null
    hyperfine -N --warmup 3 --runs 40 --export-json "$work/add-$round.json" "${add[@]}" >/dev/null
done
python3 - "$work" "$rounds" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
for kind, label in (("help", "notes --help"), ("add", "notes add")):
    wall, cpu = [], []
    for r in range(1, rounds + 1):
        results = {x["command"]: x for x in json.load(open(f"{work}/{kind}-{r}.json"))["results"]}
        wall.append(results["new"]["median"] / results["base"]["median"])
        cpu.append((results["new"]["user"] + results["new"]["system"]) / (results["base"]["user"] + results["base"]["system"]))
        b, n = results["base"], results["new"]
        print(f"{label} round {r}: wall {b['median']*1000:.2f} -> {n['median']*1000:.2f} ms, cpu {(b['user']+b['system'])*1000:.2f} -> {(n['user']+n['system'])*1000:.2f} ms")
    print(f"{label}: median ratio after/before, wall {statistics.median(wall):.3f}, cpu {statistics.median(cpu):.3f} (target within 5%)")
PY
