#!/usr/bin/env python3
"""The grounding check alone, on the answers of an earlier run (issue 17): each row's question,
answer and sources go to `ask-bench` as {"question", "check": {...}}, which runs only
NotebookQuestions.checked over the same notebook. A minute instead of a run's fifteen, to see
which answers with sources the check keeps and which it withdraws.

    replay_check.py NOTES_BINARY ASK_BENCH_BINARY RESULTS.jsonl [--part tuned|held-out|all]

The default part is the tuned one: while tuning, never the held-out rows. Sources are matched
to the new notebook by title (the notes' ids are new on every import).
"""
import argparse
import json
import os
import sqlite3
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEPS = os.environ.get("NOTES_DEPS", "/opt/notes-deps")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("notes")
    ap.add_argument("ask_bench")
    ap.add_argument("results")
    ap.add_argument("--part", choices=("tuned", "held-out", "all"), default="tuned")
    args = ap.parse_args()
    rows = [json.loads(line) for line in open(args.results, encoding="utf-8") if line.strip()]
    rows = [r for r in rows if (args.part == "all" or r["q"]["held_out"] == (args.part == "held-out")) and r["ours"].get("sources")]
    work = tempfile.mkdtemp(prefix="notes-ask-replay-")
    subprocess.run(["python3", os.path.join(HERE, "make_questions.py"), work + "/questions"], check=True, capture_output=True)
    home = work + "/home"
    os.makedirs(home)
    env = dict(os.environ, NOTES_HOME=home, NOTES_READER_MODEL=os.environ.get("NOTES_READER_MODEL") or DEPS + "/reader-model.gguf")
    subprocess.run([args.notes, "import", work + "/questions/notes"], env=env, check=True, capture_output=True)
    ids = {title: note_id for note_id, title in sqlite3.connect(home + "/notes.sqlite").execute("SELECT id, title FROM notes")}
    bench = subprocess.Popen([args.ask_bench], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    tally = {"kept right": 0, "withdrawn right": 0, "kept near miss": 0, "withdrawn near miss": 0, "wrong answers": 0}
    for row in rows:
        q, ours = row["q"], row["ours"]
        sources = [{"id": ids[s["title"]], "title": s["title"]} for s in ours["sources"]]
        bench.stdin.write(json.dumps({"question": q["question"], "check": {"answer": ours["answer"], "sources": sources}}) + "\n")
        bench.stdin.flush()
        out = json.loads(bench.stdout.readline())
        kept = bool(out.get("sources"))
        if not q["answers"]:
            key = "kept near miss" if kept else "withdrawn near miss"
        elif row["ours_score"]["right"]:
            key = "kept right" if kept else "withdrawn right"
        else:
            key = "wrong answers"
        tally[key] += 1
        print(f"{q['kind']:4} {key:19} {out.get('total_ms', 0) / 1000:4.1f}s {q['question'][:60]:60} | {ours['answer'][:40]} | "
              f"{[s['title'] for s in sources]} {out.get('error', '')}", flush=True)
    bench.stdin.close()
    bench.wait()
    print(", ".join(f"{k}: {v}" for k, v in tally.items()))


if __name__ == "__main__":
    main()
