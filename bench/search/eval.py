#!/usr/bin/env python3
"""Scores `notes search` (words only, meaning only, hybrid) and `notes related` on the labelled
notebook that make_notebook.py writes: recall@5 and MRR (first relevant note within the top 10).

    eval.py NOTES_BINARY DIR
"""
import json
import os
import re
import subprocess
import sys

notes, folder = sys.argv[1], sys.argv[2]
env = dict(os.environ, NOTES_HOME=os.path.join(folder, "home"), NOTES_READER_MODEL="none")


def run(*arguments):
    result = subprocess.run([notes, *arguments], env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"notes {' '.join(arguments)} failed: {result.stderr}")
    return result.stdout


run("import", os.path.join(folder, "notes"))
run("analyze", "--vectors")
ids = {note["body"].strip(): note["id"] for note in json.loads(run("list", "--json", "-n", "100000"))}
data = json.load(open(os.path.join(folder, "queries.json")))
assert len(ids) == data["notes"], (len(ids), data["notes"])


def score(ranked, relevant):
    found = [i for i, note in enumerate(ranked[:10]) if note in relevant]
    recall = len(set(ranked[:5]) & relevant) / len(relevant)
    return recall, (1 / (found[0] + 1) if found else 0.0)


modes = {"words": ["--exact"], "meaning": ["--meaning"], "hybrid": []}
totals = {}
for query in data["queries"]:
    relevant = {ids[title] for title in query["relevant"]}
    if query["kind"] == "related":
        source = ids[query["note"]]
        ranked = [r["id"] for r in json.loads(run("related", source, "--json", "-n", "10"))]
        totals.setdefault(("related", "meaning"), []).append(score(ranked, relevant))
        # The words peer: the note's own longer words, any of them, ranked by bm25.
        terms = sorted({w.lower() for w in re.findall(r"[A-Za-z]{4,}", query["note"])})
        ranked = [r["id"] for r in json.loads(run("search", "--exact", "--json", "-n", "11", " OR ".join(terms))) if r["id"] != source]
        totals.setdefault(("related", "words"), []).append(score(ranked, relevant))
        continue
    for mode, flags in modes.items():
        ranked = [r["id"] for r in json.loads(run("search", *flags, "--json", "-n", "10", query["query"]))]
        totals.setdefault((query["kind"], mode), []).append(score(ranked, relevant))

print(f"{data['notes']} notes, {len(data['queries'])} queries")
print(f"{'queries':<40} {'mode':<8} {'n':>3} {'recall@5':>9} {'MRR':>6}")
labels = {"words": "exact rare word (words)", "meaning": "other words than the notes' (meaning)",
          "mixed": "rare word among other words (mixed)", "related": "related-note probes (related)"}
summary = {}
for (kind, mode), scores in totals.items():
    recall = sum(s[0] for s in scores) / len(scores)
    mrr = sum(s[1] for s in scores) / len(scores)
    summary[(kind, mode)] = recall
    print(f"{labels[kind]:<40} {mode:<8} {len(scores):>3} {recall:>9.3f} {mrr:>6.3f}")
words, hybrid = summary[("meaning", "words")], summary[("meaning", "hybrid")]
print(f"other-words queries: hybrid recall@5 {hybrid:.3f} vs words only {words:.3f}"
      + (f" ({hybrid / words:.1f}x)" if words else " (words only finds none)") + " (target >= 1.5x)")
print(f"exact queries: hybrid recall@5 {summary[('words', 'hybrid')]:.3f} vs words only {summary[('words', 'words')]:.3f} (target: no worse)")
print(f"rare word among other words: hybrid MRR {sum(s[1] for s in totals[('mixed', 'hybrid')]) / len(totals[('mixed', 'hybrid')]):.3f}"
      f" (1.000: the note with the rare word always first)")
