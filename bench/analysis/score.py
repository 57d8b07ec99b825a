#!/usr/bin/env python3
"""Scores note-analysis predictions against the labelled devset.

    python3 bench/analysis/score.py PREDICTIONS.jsonl [--devset bench/analysis/devset.jsonl]
                                    [--subset] [--json]
    python3 bench/analysis/score.py --self-test

Predictions are JSONL, one object per note:
    {"id": "d001", "category": "...", "urgency": 3, "tasks": ["..."], "summary": "...",
     "ms": 812.5, "valid": true}
`valid` is false when the output did not parse or broke the schema.

Conventions (so that every analyzer is scored the same way):
  * Every devset note is scored. A note with no prediction, or with valid == false, counts as
    invalid and scores zero everywhere: wrong category, urgency miss, no predicted tasks
    (so its labelled tasks are missed), failed summary sanity. With --subset only the devset
    notes that have a prediction line are scored (for quick runs with the peer's --limit).
  * Category accuracy: exact match. Urgency within one: |predicted - labelled| <= 1.
  * Tasks: micro-averaged precision / recall / F1 over all scored notes. A predicted task
    matches a labelled task when they share at least half of the labelled task's content
    words (2 * shared >= labelled, and shared >= 1). Matching is one-to-one and greedy:
    candidate pairs are taken best first (highest share of the labelled task's words, then
    most shared words, then note order). Content words are lowercase alphanumeric tokens
    (letters or digits, any script) minus STOP_WORDS, each passed through stem().
    Precision with no predicted tasks at all is 1.0 when there are also no labelled tasks,
    else 0.0 (likewise recall); F1 is 0 when precision + recall is 0.
  * Summary sanity: non-empty, at most 30 words (whitespace-separated), and no word 3-gram
    (lowercased alphanumeric tokens, stop words kept) occurring 3 or more times.
  * ms: median and mean of the `ms` field over the scored notes that have a prediction.
"""
import argparse
import json
import math
import os
import re
import statistics
import sys

CATEGORIES = ("work", "personal", "study", "health", "finance", "other")
DEFAULT_DEVSET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "devset.jsonl")

STOP_WORDS = frozenset("""
a an the and or but to of for in on at by with from about into onto over than then
my your his her its our their me him them us i you he she it we they this that these those
is are was were be been being am do does did will shall should would can could may might must
need needs please up out as if so all any some each also just there here what when which who
""".split())

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


def stem(word):
    """A tiny suffix stemmer: plurals, -ing, -ed, and a final -e, so that
    book/books/booked/booking and write/writes/writing all meet."""
    w = word
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 4 and w.endswith(("sses", "xes", "ches", "shes")):
        w = w[:-2]
    elif len(w) > 5 and w.endswith("ing") and len(w) - 3 >= 3:
        w = w[:-3]
        w = _undouble(w)
    elif len(w) > 4 and w.endswith("ed") and len(w) - 2 >= 3:
        w = w[:-2]
        w = _undouble(w)
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


def _undouble(w):
    if len(w) >= 3 and w[-1] == w[-2] and w[-1] not in "lsz" and not w[-1].isdigit():
        return w[:-1]
    return w


def tokens(text):
    return _TOKEN.findall(str(text).lower())


def content_words(text):
    return {stem(t) for t in tokens(text) if t not in STOP_WORDS}


def match_tasks(predicted, labelled):
    """Number of one-to-one greedy matches between predicted and labelled task strings."""
    pred_sets = [content_words(p) for p in predicted]
    gold_sets = [content_words(g) for g in labelled]
    candidates = []
    for j, g in enumerate(gold_sets):
        if not g:
            continue
        for i, p in enumerate(pred_sets):
            shared = len(p & g)
            if shared >= 1 and 2 * shared >= len(g):
                candidates.append((-shared / len(g), -shared, j, i))
    candidates.sort()
    used_p, used_g, matches = set(), set(), 0
    for _, _, j, i in candidates:
        if i in used_p or j in used_g:
            continue
        used_p.add(i)
        used_g.add(j)
        matches += 1
    return matches


def summary_ok(summary):
    if not isinstance(summary, str) or not summary.strip():
        return False
    if len(summary.split()) > 30:
        return False
    words = tokens(summary)
    counts = {}
    for k in range(len(words) - 2):
        gram = tuple(words[k:k + 3])
        counts[gram] = counts.get(gram, 0) + 1
        if counts[gram] >= 3:
            return False
    return True


def _ratio(num, den, empty):
    return num / den if den else empty


def score(devset, predictions, subset=False):
    by_id = {}
    for p in predictions:
        by_id[p.get("id")] = p
    notes = [d for d in devset if d["id"] in by_id] if subset else list(devset)
    n = len(notes)
    valid = cat_ok = urg_ok = urg_exact = summ_ok = 0
    tp = n_pred = n_gold = 0
    ms = []
    for d in notes:
        p = by_id.get(d["id"])
        n_gold += len(d["tasks"])
        if p is None:
            continue
        if isinstance(p.get("ms"), (int, float)) and not isinstance(p.get("ms"), bool):
            ms.append(float(p["ms"]))
        if not p.get("valid"):
            continue
        valid += 1
        cat_ok += p.get("category") == d["category"]
        u = p.get("urgency")
        if isinstance(u, int) and not isinstance(u, bool):
            urg_ok += abs(u - d["urgency"]) <= 1
            urg_exact += u == d["urgency"]
        tasks = [t for t in (p.get("tasks") or []) if isinstance(t, str)]
        n_pred += len(tasks)
        tp += match_tasks(tasks, d["tasks"])
        summ_ok += summary_ok(p.get("summary"))
    precision = _ratio(tp, n_pred, 1.0 if n_gold == 0 else 0.0)
    recall = _ratio(tp, n_gold, 1.0 if n_pred == 0 else 0.0)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "notes": n,
        "predictions": sum(1 for d in notes if d["id"] in by_id),
        "validity": _ratio(valid, n, 0.0),
        "category_accuracy": _ratio(cat_ok, n, 0.0),
        "urgency_within_one": _ratio(urg_ok, n, 0.0),
        "urgency_exact": _ratio(urg_exact, n, 0.0),
        "task_precision": precision,
        "task_recall": recall,
        "task_f1": f1,
        "tasks_matched": tp,
        "tasks_predicted": n_pred,
        "tasks_labelled": n_gold,
        "summary_sanity": _ratio(summ_ok, n, 0.0),
        "ms_median": statistics.median(ms) if ms else None,
        "ms_mean": statistics.fmean(ms) if ms else None,
    }


def format_report(r):
    def pct(x):
        return f"{100 * x:5.1f}%"

    def ms(x):
        return "n/a" if x is None else f"{x:.0f}"

    return "\n".join([
        f"notes scored        {r['notes']} ({r['predictions']} with a prediction)",
        f"validity            {pct(r['validity'])}",
        f"category accuracy   {pct(r['category_accuracy'])}",
        f"urgency within one  {pct(r['urgency_within_one'])}   (exact {pct(r['urgency_exact'])})",
        f"task precision      {pct(r['task_precision'])}   ({r['tasks_matched']}/{r['tasks_predicted']} predicted)",
        f"task recall         {pct(r['task_recall'])}   ({r['tasks_matched']}/{r['tasks_labelled']} labelled)",
        f"task F1             {pct(r['task_f1'])}",
        f"summary sanity      {pct(r['summary_sanity'])}",
        f"ms per note         median {ms(r['ms_median'])}, mean {ms(r['ms_mean'])}",
    ])


def read_jsonl(path):
    rows = []
    with open(path, encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{line_no}: not JSON: {e}")
    return rows


def self_test():
    failures = []

    def check(name, got, want):
        ok = (abs(got - want) < 1e-9) if isinstance(want, float) else got == want
        if not ok:
            failures.append(f"{name}: got {got!r}, want {want!r}")

    # Stemmer and content words.
    check("stem books", stem("books"), "book")
    check("stem booked", stem("booked"), "book")
    check("stem booking", stem("booking"), "book")
    check("stem running", stem("running"), "run")
    check("stem bring (too short to strip)", stem("bring"), "bring")
    check("stem batteries", stem("batteries"), "battery")
    check("stem boxes", stem("boxes"), "box")
    check("stem writing/write", (stem("writing"), stem("write")), ("writ", "writ"))
    check("stem class", stem("class"), "class")
    check("content words", content_words("Call the pharmacy to refill my lisinopril!"),
          {"call", "pharmacy", "refill", "lisinopril"})
    check("content words, unicode", content_words("Überweisung der Nachzahlung"),
          {"überweisung", "der", "nachzahlung"})

    # Matching: "Book flu shot" vs labelled "book a flu shot" -> {book, flu, shot} all shared.
    check("match exact-ish", match_tasks(["Book flu shot"], ["book a flu shot"]), 1)
    # Labelled {send, q4, slid, marta} (4 words); predicted shares {send, slid} = 2 -> 2*2>=4.
    check("match half", match_tasks(["Send slides"], ["Send the Q4 slides to Marta"]), 1)
    # Shares only {marta}: 1 of 4 -> no match.
    check("match below half", match_tasks(["Email Marta"], ["Send the Q4 slides to Marta"]), 0)
    # One-to-one: two identical predictions can only match one labelled task.
    check("one-to-one", match_tasks(["buy milk", "buy milk"], ["buy milk"]), 1)
    # Greedy picks the best pair first: "buy milk" -> "buy milk" (2/2), then "buy eggs"
    # -> "buy eggs and milk" ({buy, egg} of {buy, egg, milk}: 2*2 >= 3).
    check("greedy", match_tasks(["buy milk", "buy eggs"], ["buy eggs and milk", "buy milk"]), 2)

    # Summary sanity.
    check("summary ok", summary_ok("Pay rent by Monday."), True)
    check("summary empty", summary_ok("  "), False)
    check("summary 31 words", summary_ok(" ".join(["word"] * 31)), False)
    check("summary 30 distinct-ish words", summary_ok(" ".join(f"w{i}" for i in range(30))), True)
    check("summary loop", summary_ok("pay the rent pay the rent pay the rent"), False)
    check("summary 3-gram twice is fine", summary_ok("pay the rent, then pay the rent again"), True)

    # Whole scoring, hand-computed.
    dev = [
        {"id": "a", "category": "work", "urgency": 5, "tasks": ["Send the Q4 slides to Marta"], "summary": "x"},
        {"id": "b", "category": "health", "urgency": 2, "tasks": ["book flu shot", "schedule eye exam"], "summary": "x"},
        {"id": "c", "category": "other", "urgency": 1, "tasks": [], "summary": "x"},
        {"id": "d", "category": "finance", "urgency": 3, "tasks": ["Pay the electricity invoice"], "summary": "x"},
    ]
    preds = [
        # a: valid, category right, urgency 4 (within one, not exact), 1 of 2 tasks matches.
        {"id": "a", "category": "work", "urgency": 4, "tasks": ["Send slides to Marta", "Book a room"],
         "summary": "Send the slides today.", "ms": 100, "valid": True},
        # b: valid, category wrong, urgency 5 (miss), 1 task matches the 2nd labelled one.
        {"id": "b", "category": "personal", "urgency": 5, "tasks": ["Schedule an eye exam"],
         "summary": "go go go go go go go go go", "ms": 300, "valid": True},
        # c: invalid: scores zero everywhere though its fields would have been right.
        {"id": "c", "category": "other", "urgency": 1, "tasks": [], "summary": "Nothing.",
         "ms": 200, "valid": False},
        # d: no prediction at all.
    ]
    r = score(dev, preds)
    check("notes", r["notes"], 4)
    check("validity", r["validity"], 0.5)
    check("category", r["category_accuracy"], 0.25)
    check("urgency within one", r["urgency_within_one"], 0.25)
    check("urgency exact", r["urgency_exact"], 0.0)
    check("tp", r["tasks_matched"], 2)
    check("precision", r["task_precision"], 2 / 3)
    check("recall", r["task_recall"], 2 / 4)
    check("f1", r["task_f1"], 2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))
    check("summary sanity", r["summary_sanity"], 0.25)  # "go" x9 repeats (go, go, go)
    check("ms median", r["ms_median"], 200.0)
    check("ms mean", r["ms_mean"], 200.0)
    r = score(dev, preds, subset=True)
    check("subset notes", r["notes"], 3)
    check("subset validity", r["validity"], 2 / 3)
    check("subset recall", r["task_recall"], 2 / 3)
    # Nothing labelled and nothing predicted: precision and recall are 1.
    r = score([dev[2]], [{"id": "c", "category": "other", "urgency": 1, "tasks": [],
                          "summary": "Nothing to do.", "ms": 5, "valid": True}])
    check("empty tasks precision", r["task_precision"], 1.0)
    check("empty tasks recall", r["task_recall"], 1.0)
    check("empty tasks f1", r["task_f1"], 1.0)

    if failures:
        print("self-test FAILED:")
        for f in failures:
            print("  " + f)
        return 1
    print("self-test: all checks passed")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("predictions", nargs="?", help="predictions JSONL")
    ap.add_argument("--devset", default=DEFAULT_DEVSET)
    ap.add_argument("--subset", action="store_true",
                    help="score only the devset notes that have a prediction")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    if not args.predictions:
        ap.error("a predictions file is required (or --self-test)")
    devset = read_jsonl(args.devset)
    preds = read_jsonl(args.predictions)
    known = {d["id"] for d in devset}
    unknown = [p.get("id") for p in preds if p.get("id") not in known]
    if unknown:
        print(f"warning: {len(unknown)} prediction(s) for ids not in the devset, ignored: "
              f"{unknown[:5]}", file=sys.stderr)
    r = score(devset, preds, subset=args.subset)
    if args.json:
        print(json.dumps(r, indent=2))
    else:
        print(format_report(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
