#!/usr/bin/env bash
# Storage and CLI benchmark (issues 2, 13 and 14): import, search, add and list on a 10,000-note
# notebook, then the import of a 10,000-note Obsidian vault with 5 links a note and `notes links`,
# each beside the sqlite3 shell doing the equivalent work on the same data, in the same run.
# ONLY=list runs the import and the listing alone; BASELINE=/path/to/notes adds an older binary
# to the hyperfine runs of the listing and of `notes add`.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh
source scripts/env.sh
notes="$(scripts/build.sh)"
work="$(mktemp -d /tmp/notes-bench-XXXXXX)"
trap 'rm -rf "$work"' EXIT
export NOTES_HOME="$work/home"
runs="${RUNS:-40}"

python3 bench/storage/make_corpus.py "$work/corpus" 10000

echo "== import of 10,000 Markdown files"
start=$(date +%s%N)
"$notes" import "$work/corpus" 2>&1 | tail -1
import_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "notes import: ${import_ms} ms (target < 5000 ms)"

db="$NOTES_HOME/notes.sqlite"
# The peer's query: the same FTS5 MATCH, join, snippet and bm25 ranking on the same database.
peer_sql="SELECT n.id, n.title, snippet(notes_fts, -1, '[', ']', '…', 16) FROM notes_fts JOIN notes n ON n.seq = notes_fts.rowid WHERE notes_fts MATCH '\"zyxquartz7\"' AND n.deleted IS NULL ORDER BY bm25(notes_fts, 10.0, 1.0, 3.0) LIMIT 50;"
# The listing (issue 13): `notes list` and `notes list --json` of every note, half of them
# analysed with a task, beside the sqlite3 shell printing the same lines and the same JSON.
list_benchmark() {
    sqlite3 "$db" < bench/storage/analyses.sql
    "$notes" list --json > "$work/ours.json"
    sqlite3 "$db" < bench/storage/list_json.sql > "$work/peer.json"
    "$notes" list > "$work/ours.txt"
    sqlite3 "$db" < bench/storage/list_lines.sql > "$work/peer.txt"
    python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
ours, peer = json.load(open(work + "/ours.json")), json.load(open(work + "/peer.json"))
print(f"list --json: {len(ours)} notes, {sum(n['analysis'] is not None for n in ours)} analysed; same JSON as the peer: {ours == peer}")
ours, peer = open(work + "/ours.txt").read().splitlines(), open(work + "/peer.txt").read().splitlines()
same = sum(a.split("  ", 1)[1] == b.split("  ", 1)[1] for a, b in zip(ours, peer))
longer = sum(len(a.split("  ", 1)[0]) > 6 for a in ours)
print(f"list: {len(ours)} lines, {same} the same as the peer's after the handle; {longer} handles longer than 6")
PY
    local baseline=()
    if [[ -n "${BASELINE:-}" ]]; then
        baseline=(-n "notes list --json (baseline)" "$BASELINE list --json" -n "notes list (baseline)" "$BASELINE list")
    fi
    hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/list.json" --output=pipe \
        -n "notes list --json" "$notes list --json" \
        -n "sqlite3 JSON" "sqlite3 $db \".read bench/storage/list_json.sql\"" \
        -n "notes list" "$notes list" \
        -n "sqlite3 lines" "sqlite3 $db \".read bench/storage/list_lines.sql\"" \
        "${baseline[@]}" >/dev/null
    python3 - "$work/list.json" <<'PY'
import json, sys
m = {r["command"]: r["median"] * 1000 for r in json.load(open(sys.argv[1]))["results"]}
for ours, peer in (("notes list --json", "sqlite3 JSON"), ("notes list", "sqlite3 lines")):
    line = f"{ours} median {m[ours]:.2f} ms; sqlite3 shell {m[peer]:.2f} ms; ratio {m[ours]/m[peer]:.2f}x (target <= 2x)"
    if ours + " (baseline)" in m:
        line += f"; baseline binary {m[ours + ' (baseline)']:.2f} ms ({m[ours + ' (baseline)']/m[peer]:.2f}x)"
    print(line)
PY
}
if [[ "${ONLY:-}" == list ]]; then
    list_benchmark
    exit 0
fi

found=$("$notes" search zyxquartz7 --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
planted=0
for k in 0 1 2 3 4 5 6 7 8 9; do
    n=$("$notes" search "zyxquartz$k" --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
    planted=$((planted + n))
done
echo "planted rare words found: $planted of 10 (zyxquartz7: $found)"

hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/search.json" \
    -n "notes search" "$notes search zyxquartz7" \
    -n "sqlite3 FTS5 MATCH" "sqlite3 $db \"$peer_sql\"" >/dev/null

cp "$db" "$work/peer.sqlite"
add_baseline=()
if [[ -n "${BASELINE:-}" ]]; then add_baseline=(-n "notes add (baseline)" "$BASELINE add benchmark note with a few words"); fi
hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/add.json" \
    -n "notes add" "$notes add benchmark note with a few words" \
    -n "sqlite3 insert" "sqlite3 $work/peer.sqlite \"INSERT INTO notes(id, title, body, content_hash, created, updated) VALUES (lower(hex(randomblob(16))), 'benchmark', 'benchmark note with a few words', '', 0, 0);\"" \
    "${add_baseline[@]}" >/dev/null

echo "== listing 10,000 notes"
list_benchmark

echo "== import of a 10,000-note Obsidian vault, 5 links a note"
python3 bench/storage/make_vault.py "$work/vault" 10000
export NOTES_HOME="$work/vault-home"
start=$(date +%s%N)
"$notes" import "$work/vault" 2>&1 | tail -1
vault_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "notes import (vault): ${vault_ms} ms (target < 5000 ms)"
vault_db="$NOTES_HOME/notes.sqlite"
sqlite3 "$vault_db" "SELECT 'links: ' || count(*) || ', resolved: ' || count(target_seq) FROM links;"
# The hub (linked from every 100th note) and a typical note (5 links, a few backlinks).
hub=$(sqlite3 "$vault_db" "SELECT id FROM notes WHERE source_path = 'Area 00/Topic 0/Hub'")
typical=$(sqlite3 "$vault_db" "SELECT id FROM notes WHERE source_path LIKE '%/Note 04321 %'")
# The peer's queries: the same two that `notes links` runs (links out, in order; backlinks).
links_sql() {
    echo "SELECT s.id, s.title, l.target, l.heading, l.embed, l.markdown, t.id, t.title FROM links l JOIN notes s ON s.seq = l.source_seq LEFT JOIN notes t ON t.seq = l.target_seq WHERE s.id = '$1' ORDER BY l.position; SELECT s.id, s.title, l.target, l.heading, l.embed, l.markdown, t.id, t.title FROM notes t JOIN links l ON l.target_seq = t.seq JOIN notes s ON s.seq = l.source_seq WHERE t.id = '$1' AND s.deleted IS NULL ORDER BY s.updated DESC, s.id, l.position;"
}
echo "hub: $("$notes" links "$hub" | grep -c '←') backlinks; typical note: $("$notes" links "$typical" | grep -c '←') backlinks"
hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/links.json" \
    -n "notes links (hub)" "$notes links $hub" \
    -n "sqlite3 link queries (hub)" "sqlite3 $vault_db \"$(links_sql "$hub")\"" \
    -n "notes links (typical)" "$notes links $typical" \
    -n "sqlite3 link queries (typical)" "sqlite3 $vault_db \"$(links_sql "$typical")\"" >/dev/null

python3 - "$work/search.json" "$work/add.json" "$work/links.json" <<'PY'
import json, sys
def medians(path):
    return {r["command"]: r["median"] * 1000 for r in json.load(open(path))["results"]}
search = medians(sys.argv[1]); add = medians(sys.argv[2]); links = medians(sys.argv[3])
s, sp = search["notes search"], search["sqlite3 FTS5 MATCH"]
a, ap = add["notes add"], add["sqlite3 insert"]
print(f"notes search median {s:.2f} ms; sqlite3 shell {sp:.2f} ms; ratio {s/sp:.2f}x (target <= 2x and < 25 ms)")
line = f"notes add    median {a:.2f} ms; sqlite3 shell {ap:.2f} ms; ratio {a/ap:.2f}x (target <= 2x and < 20 ms)"
if "notes add (baseline)" in add:
    line += f"; baseline binary {add['notes add (baseline)']:.2f} ms ({add['notes add (baseline)']/ap:.2f}x)"
print(line)
for which in ("hub", "typical"):
    l, lp = links[f"notes links ({which})"], links[f"sqlite3 link queries ({which})"]
    print(f"notes links ({which}) median {l:.2f} ms; sqlite3 shell {lp:.2f} ms; ratio {l/lp:.2f}x (target < 20 ms)")
PY
if command -v nb >/dev/null; then echo "nb found: not yet measured"; else echo "nb: not installable here (not in Debian's archive or PyPI); not measured"; fi
