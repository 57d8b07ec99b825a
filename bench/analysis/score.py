#!/usr/bin/env python3
"""Scores note-analysis predictions against the labelled dev set.

    python3 bench/analysis/score.py PREDICTIONS.jsonl [--devset bench/analysis/devset]
                                    [--subset] [--json] [--by-language held_out]
    python3 bench/analysis/score.py --self-test

--by-language adds a table per labelled language over one split (all, dev or held_out).

The dev set is the folder bench/analysis/devset: every *.jsonl in it, in sorted file-name order
(core, long, world), read as one file. --devset also takes a single JSONL file, such as the
concatenation run.sh writes to $OUT/devset.jsonl. LABELING.md describes the labels.

Predictions are JSONL, one object per note:
    {"id": "d001", "category": "...", "urgency": 3, "tasks": ["..."], "summary": "...",
     "ms": 812.5, "valid": true}
Tasks, in predictions as in labels, are strings or {"text": "...", "due": "YYYY-MM-DD" | null}
objects; a string task has no due date (null). Other keys ("stage", "error", "raw") are ignored.
`valid` is false when the output did not parse or broke the schema.

Conventions (so that every analyzer is scored the same way):
  * Every devset note is scored. A note with no prediction, or with valid == false, counts as
    invalid and scores zero everywhere: wrong category, urgency miss, no predicted tasks
    (so its labelled tasks are missed), failed summary sanity, no key fact covered, not
    faithful. With --subset only the devset notes that have a prediction line are scored
    (for quick runs with the peer's --limit).
  * Split: a note is HELD OUT when held_out(id), i.e. the first 8 hex digits of the SHA-256 of
    its id, read as an integer, are divisible by 3; every other note is DEV. Every figure is
    given for ALL, DEV and HELD-OUT (the top-level JSON keys are ALL, as before the split).
    Tune on DEV only: never read held-out notes or their per-note results while working on
    the analyser.
  * Kinds: a note's "kinds" list may hold "long" (120+ words), "lang" (not English) and
    "implied" (a labelled task the note only implies); "others" are the notes with none of
    them. Task P/R/F1, category accuracy and urgency within one are also given per kind.
  * Category accuracy: exact match. Urgency within one: |predicted - labelled| <= 1.
  * Tasks: micro-averaged precision / recall / F1 over all scored notes. A predicted task
    matches a labelled task when they share at least half of the labelled task's content
    words (2 * shared >= labelled, and shared >= 1). Matching is one-to-one and greedy:
    candidate pairs are taken best first (highest share of the labelled task's words, then
    most shared words, then note order). Content words are lowercase alphanumeric tokens
    (letters or digits, any script) minus STOP_WORDS, each passed through stem().
    Precision with no predicted tasks at all is 1.0 when there are also no labelled tasks,
    else 0.0 (likewise recall); F1 is 0 when precision + recall is 0.
  * Due dates: over the matched pairs whose labelled task is an object with a "due" key, the
    share where the predicted due equals the labelled one (null == null).
  * Key-fact coverage, over the notes with "key_facts" (the long notes): the mean share of a
    note's facts that its predicted summary covers. A fact is a list of keywords (or
    {"keywords": [...]}, or one string); it is covered when one keyword occurs in the summary,
    compared by fold() (case, accents and digit groupings ignored), starting at a word start
    and, when it ends in a digit, not followed by another digit. A summary over 40 words
    covers nothing.
  * Faithfulness: a summary is faithful when it is non-empty and every number in it and every
    capitalised word that does not start a sentence (a name) occurs in the note text: numbers
    (digit runs after fold(), leading zeros dropped) as a number of the note; words, by
    fold(), at a word start of the note (an acronym's plural "s" may be missing there).
    English weekday and month names, "I" and currency codes (EUR for €) are not names. Given
    over the notes with key_facts and over all notes.
  * Summary sanity: non-empty, at most 30 words (whitespace-separated), and no word 3-gram
    (lowercased alphanumeric tokens, stop words kept) occurring 3 or more times.
  * ms: median and mean of the `ms` field over the scored notes that have a prediction.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import statistics
import sys
import unicodedata

CATEGORIES = ("work", "personal", "study", "health", "finance", "other")
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DEVSET = os.path.join(HERE, "devset")
KINDS = ("long", "lang", "implied")
SPLITS = ("all", "dev", "held_out")

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


def task_text(task):
    """A task's text, whether the task is a string or a {"text", "due"} object."""
    if isinstance(task, dict):
        return str(task.get("text") or "")
    return str(task)


def task_list(tasks):
    """The tasks of a label or prediction that are strings or objects with a text."""
    return [t for t in (tasks or []) if isinstance(t, str) or
            (isinstance(t, dict) and isinstance(t.get("text"), str))]


def held_out(note_id):
    """The held-out third: sha256(id), first 8 hex digits as an integer, divisible by 3."""
    return int(hashlib.sha256(str(note_id).encode("utf-8")).hexdigest()[:8], 16) % 3 == 0


def match_pairs(predicted, labelled):
    """One-to-one greedy matches between predicted and labelled task texts, as
    (predicted index, labelled index) pairs."""
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
    used_p, used_g, pairs = set(), set(), []
    for _, _, j, i in candidates:
        if i in used_p or j in used_g:
            continue
        used_p.add(i)
        used_g.add(j)
        pairs.append((i, j))
    return pairs


def match_tasks(predicted, labelled):
    """Number of one-to-one greedy matches between predicted and labelled task strings."""
    return len(match_pairs(predicted, labelled))


_DIGIT_GROUP = re.compile(r"(?<=\d)[,.' ](?=\d{3}(?!\d))")
_NUMBER = re.compile(r"\d+")


def fold(text):
    """Lowercase, accents stripped (NFKD minus combining marks), digit groupings removed:
    "Ústí", "usti" and "USTI" meet, and so do "12,000", "12.000", "12 000" and "12000"."""
    text = unicodedata.normalize("NFKD", str(text))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return _DIGIT_GROUP.sub("", text)


def _occurs(needle, folded_text):
    """needle (folded) occurs in folded_text at a word start; a needle ending in a digit
    must not be followed by another digit (so "14" is not found in "140", but is in "14th")."""
    needle = needle.strip()
    if not needle:
        return False
    tail = r"(?!\d)" if needle[-1].isdigit() else ""
    return re.search(r"(?<![^\W_])" + re.escape(needle) + tail, folded_text) is not None


def fact_keywords(fact):
    """A key fact's keywords: a list of strings, {"keywords": [...]}, or one string."""
    if isinstance(fact, dict):
        fact = fact.get("keywords", [])
    if isinstance(fact, str):
        return [fact]
    return [k for k in fact if isinstance(k, str)]


def fact_coverage(summary, key_facts):
    """Share of key_facts covered by summary (0 for a summary over 40 words)."""
    facts = list(key_facts or [])
    if not facts:
        return None
    if not isinstance(summary, str) or len(summary.split()) > 40:
        return 0.0
    folded = fold(summary)
    covered = sum(any(_occurs(fold(k), folded) for k in fact_keywords(f)) for f in facts)
    return covered / len(facts)


NOT_NAMES = frozenset("""
i monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri
sat sun january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec
eur usd gbp chf sek nok dkk pln czk huf ron
""".split())


def summary_faithful(summary, text):
    """True when every number and every name (a capitalised word not starting a sentence)
    of summary occurs in text."""
    if not isinstance(summary, str) or not summary.strip():
        return False
    folded_text = fold(text)
    numbers = {n.lstrip("0") or "0" for n in _NUMBER.findall(folded_text)}
    for n in _NUMBER.findall(fold(summary)):
        if (n.lstrip("0") or "0") not in numbers:
            return False
    sentence_start = True
    for word in summary.split():
        core = word.strip("\"'“”‘’«»„()[]{}*_-–—,;:")
        if core and core[0].isupper() and not sentence_start:
            for token in tokens(fold(core)):
                if token.isdigit() or token in NOT_NAMES:
                    continue
                if not _occurs(token, folded_text) and not (
                        token.endswith("s") and _occurs(token[:-1], folded_text)):  # "OKRs"
                    return False
        if word.rstrip("\"'”’»)]").endswith((".", "!", "?")):
            sentence_start = True
        elif core:
            sentence_start = False
    return True


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


def _prf(tp, n_pred, n_gold):
    precision = _ratio(tp, n_pred, 1.0 if n_gold == 0 else 0.0)
    recall = _ratio(tp, n_gold, 1.0 if n_pred == 0 else 0.0)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def note_result(d, p):
    """The per-note counts for labelled note d and its prediction p (None when missing)."""
    gold = task_list(d["tasks"])
    has_facts = bool(d.get("key_facts"))
    r = {"id": d["id"], "kinds": set(d.get("kinds") or []), "predicted": p is not None,
         "valid": False, "cat_ok": False, "urg_ok": False, "urg_exact": False,
         "tp": 0, "n_pred": 0, "n_gold": len(gold), "summ_ok": False, "ms": None,
         "due_pairs": 0, "due_ok": 0, "has_facts": has_facts,
         "coverage": 0.0 if has_facts else None, "faithful": False}
    if p is None:
        return r
    if isinstance(p.get("ms"), (int, float)) and not isinstance(p.get("ms"), bool):
        r["ms"] = float(p["ms"])
    if not p.get("valid"):
        return r
    r["valid"] = True
    r["cat_ok"] = p.get("category") == d["category"]
    u = p.get("urgency")
    if isinstance(u, int) and not isinstance(u, bool):
        r["urg_ok"] = abs(u - d["urgency"]) <= 1
        r["urg_exact"] = u == d["urgency"]
    tasks = task_list(p.get("tasks"))
    r["n_pred"] = len(tasks)
    pairs = match_pairs([task_text(t) for t in tasks], [task_text(g) for g in gold])
    r["tp"] = len(pairs)
    for i, j in pairs:
        if isinstance(gold[j], dict) and "due" in gold[j]:
            r["due_pairs"] += 1
            predicted_due = tasks[i].get("due") if isinstance(tasks[i], dict) else None
            r["due_ok"] += predicted_due == gold[j]["due"]
    summary = p.get("summary")
    r["summ_ok"] = summary_ok(summary)
    if has_facts:
        r["coverage"] = fact_coverage(summary, d["key_facts"])
    r["faithful"] = summary_faithful(summary, d.get("text", ""))
    return r


def _task_figures(rows):
    tp = sum(r["tp"] for r in rows)
    n_pred = sum(r["n_pred"] for r in rows)
    n_gold = sum(r["n_gold"] for r in rows)
    return (tp, n_pred, n_gold) + _prf(tp, n_pred, n_gold)


def _kind_rows(rows, kind):
    if kind == "all":
        return rows
    if kind == "others":
        return [r for r in rows if not r["kinds"] & set(KINDS)]
    return [r for r in rows if kind in r["kinds"]]


def aggregate(rows):
    """The figures over the per-note results rows."""
    n = len(rows)
    tp, n_pred, n_gold, precision, recall, f1 = _task_figures(rows)
    ms = [r["ms"] for r in rows if r["ms"] is not None]
    due_pairs = sum(r["due_pairs"] for r in rows)
    fact_rows = [r for r in rows if r["has_facts"]]
    by_kind = {}
    for kind in ("all",) + KINDS + ("others",):
        group = _kind_rows(rows, kind)
        _, _, _, kind_p, kind_r, kind_f1 = _task_figures(group)
        empty = not group  # a kind with no notes has no figures (null)
        by_kind[kind] = {
            "notes": len(group),
            "task_precision": None if empty else kind_p,
            "task_recall": None if empty else kind_r,
            "task_f1": None if empty else kind_f1,
            "category_accuracy": _ratio(sum(r["cat_ok"] for r in group), len(group), None),
            "urgency_within_one": _ratio(sum(r["urg_ok"] for r in group), len(group), None),
        }
    return {
        "notes": n,
        "predictions": sum(r["predicted"] for r in rows),
        "validity": _ratio(sum(r["valid"] for r in rows), n, 0.0),
        "category_accuracy": _ratio(sum(r["cat_ok"] for r in rows), n, 0.0),
        "urgency_within_one": _ratio(sum(r["urg_ok"] for r in rows), n, 0.0),
        "urgency_exact": _ratio(sum(r["urg_exact"] for r in rows), n, 0.0),
        "task_precision": precision,
        "task_recall": recall,
        "task_f1": f1,
        "tasks_matched": tp,
        "tasks_predicted": n_pred,
        "tasks_labelled": n_gold,
        "due_accuracy": _ratio(sum(r["due_ok"] for r in rows), due_pairs, None),
        "due_pairs": due_pairs,
        "key_fact_notes": len(fact_rows),
        "key_fact_coverage": _ratio(sum(r["coverage"] for r in fact_rows), len(fact_rows), None),
        "faithfulness_key_fact_notes": _ratio(sum(r["faithful"] for r in fact_rows),
                                              len(fact_rows), None),
        "faithfulness_all": _ratio(sum(r["faithful"] for r in rows), n, 0.0),
        "summary_sanity": _ratio(sum(r["summ_ok"] for r in rows), n, 0.0),
        "ms_median": statistics.median(ms) if ms else None,
        "ms_mean": statistics.fmean(ms) if ms else None,
        "by_kind": by_kind,
    }


def score(devset, predictions, subset=False):
    """The figures over ALL notes at the top level (as before the split), and again under
    "all", "dev" and "held_out"."""
    by_id = {}
    for p in predictions:
        by_id[p.get("id")] = p
    notes = [d for d in devset if d["id"] in by_id] if subset else list(devset)
    rows = [note_result(d, by_id.get(d["id"])) for d in notes]
    everything = aggregate(rows)
    result = dict(everything)
    result["all"] = everything
    result["dev"] = aggregate([r for r in rows if not held_out(r["id"])])
    result["held_out"] = aggregate([r for r in rows if held_out(r["id"])])
    return result


def by_language(devset, predictions, split="held_out", subset=False):
    """One aggregate per labelled language, over the notes of one split ("all", "dev",
    "held_out"), most notes first."""
    by_id = {p.get("id"): p for p in predictions}
    notes = [d for d in devset if d["id"] in by_id] if subset else list(devset)
    keep = {"all": lambda i: True, "dev": lambda i: not held_out(i), "held_out": held_out}[split]
    groups = {}
    for d in notes:
        if keep(d["id"]):
            groups.setdefault(d.get("lang") or "?", []).append(note_result(d, by_id.get(d["id"])))
    return sorted(((lang, aggregate(rows)) for lang, rows in groups.items()), key=lambda x: (-x[1]["notes"], x[0]))


def format_languages(table, split):
    def pct(x):
        return "    n/a" if x is None else f"{100 * x:6.1f}%"
    lines = [f"by language, {split.replace('_', '-')}: notes, task F1 (precision / recall), category, urgency within one, due days right, key facts",
             f"{'language':<10}{'notes':>6}{'F1':>9}{'P':>9}{'R':>9}{'category':>10}{'urgency':>9}{'due':>9}{'facts':>9}"]
    for lang, a in table:
        lines.append(f"{lang:<10}{a['notes']:6d}" + "".join(f"{pct(a[key]):>{width}}" for key, width in (
            ("task_f1", 9), ("task_precision", 9), ("task_recall", 9), ("category_accuracy", 10),
            ("urgency_within_one", 9), ("due_accuracy", 9), ("key_fact_coverage", 9))))
    return "\n".join(lines)


def format_report(r):
    def pct(x):
        return "    n/a" if x is None else f"{100 * x:6.1f}%"

    def ms(x):
        return "    n/a" if x is None else f"{x:7.0f}"

    cols = [r[s] for s in SPLITS]
    a = r["all"]

    def line(label, key, fmt=pct, extra=""):
        return f"{label:<28}" + " ".join(fmt(c[key]) for c in cols) + extra

    out = [
        f"{'':<28}{'ALL':>7} {'DEV':>7} {'HELD-OUT':>8}",
        f"{'notes scored':<28}" + " ".join(f"{c['notes']:7d}" for c in cols)
        + f"   ({a['predictions']} with a prediction)",
        line("validity", "validity"),
        line("category accuracy", "category_accuracy"),
        line("urgency within one", "urgency_within_one"),
        line("urgency exact", "urgency_exact"),
        line("task precision", "task_precision",
             extra=f"   (all: {a['tasks_matched']}/{a['tasks_predicted']} predicted)"),
        line("task recall", "task_recall",
             extra=f"   (all: {a['tasks_matched']}/{a['tasks_labelled']} labelled)"),
        line("task F1", "task_f1"),
        line("due dates right", "due_accuracy",
             extra=f"   (all: {a['due_pairs']} matched tasks with a labelled due)"),
        line("key-fact coverage", "key_fact_coverage",
             extra=f"   (all: {a['key_fact_notes']} notes with key facts)"),
        line("faithful, key-fact notes", "faithfulness_key_fact_notes"),
        line("faithful, all notes", "faithfulness_all"),
        line("summary sanity", "summary_sanity"),
        line("ms median", "ms_median", fmt=ms),
        line("ms mean", "ms_mean", fmt=ms),
    ]
    for key, label in (("task_f1", "task F1"), ("category_accuracy", "category"),
                       ("urgency_within_one", "urgency within one")):
        for kind in ("all",) + KINDS + ("others",):
            out.append(f"{label + ', ' + kind:<28}"
                       + " ".join(pct(c["by_kind"][kind][key]) for c in cols)
                       + f"   ({'/'.join(str(c['by_kind'][kind]['notes']) for c in cols)} notes)")
    return "\n".join(out)


def load_devset(path):
    """The dev set: a JSONL file, or every *.jsonl of a folder in sorted file-name order."""
    if os.path.isdir(path):
        files = sorted(glob.glob(os.path.join(path, "*.jsonl")))
        if not files:
            sys.exit(f"{path}: no *.jsonl files")
        return [row for f in files for row in read_jsonl(f)]
    return read_jsonl(path)


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


    # Tasks as {"text", "due"} objects, in labels and predictions.
    check("task text of object", task_text({"text": "Pay rent", "due": None}), "Pay rent")
    check("match objects", match_pairs(["Pay the rent"], [task_text({"text": "pay rent"})]), [(0, 0)])

    # The held-out split (values of sha256 worked out once with hashlib).
    check("held out b", held_out("b"), True)
    check("held out f", held_out("f"), True)
    check("held out w001", held_out("w001"), True)
    check("dev a", held_out("a"), False)
    check("dev d001", held_out("d001"), False)
    share = sum(held_out(f"x{i:04d}") for i in range(3000)) / 3000
    check("held out about a third", abs(share - 1 / 3) < 0.03, True)

    # Folding: case, accents and digit groupings.
    check("fold accents", fold("Ústí nad Labem, Ελλάδα, Hà Nội"), "usti nad labem, ελλαδα, ha noi")
    check("fold digit groups", fold("12,000 / 12.000 / 1 200 000 / 3.5 / 238,40"),
          "12000 / 12000 / 1200000 / 3.5 / 238,40")

    # Key-fact coverage.
    facts = [["Okafor"], ["12000", "twelve thousand"], {"keywords": ["boiler"]}, "14"]
    check("coverage 2 of 4", fact_coverage("Dr. OKÁFOR paid 12,000 for 140 tiles.", facts), 0.5)
    check("coverage all", fact_coverage("Okafor: twelve thousand for the boiler, day 14.", facts), 1.0)
    check("coverage 14th", fact_coverage("Okafor on the 14th", [["14"], ["March 2"]]), 0.5)
    check("coverage at word starts", fact_coverage("Boilerplate, Nokafor", [["boiler"], ["okafor"]]), 0.5)
    check("coverage over 40 words", fact_coverage("Okafor " + "x " * 40, facts), 0.0)
    check("coverage without facts", fact_coverage("Okafor", []), None)

    # Faithfulness: numbers and names must come from the note.
    text = "Call Marta on Friday about the 3 invoices (€1,200 total) from Hartmann GmbH, due 09.12."
    check("faithful", summary_faithful("Call Marta Friday about 3 invoices of 1200 euros.", text), True)
    check("faithful, first word and month",
          summary_faithful("Invoices: Hartmann owes €1.200 by Dec 9.", text), True)
    check("unfaithful number", summary_faithful("Call Marta about 4 invoices.", text), False)
    check("unfaithful name", summary_faithful("Call Priya about the invoices.", text), False)
    check("a sentence starts after a full stop", summary_faithful("Invoices due. Total is 1200.", text), True)
    check("accent-insensitive name", summary_faithful("Ask Márta today.", text), True)
    check("currency code and plural acronym", summary_faithful("Pay 1200 EUR to Hartmann GmbHs.", text), True)
    check("empty summary not faithful", summary_faithful("", text), False)

    # New figures through score(): split, kinds, due dates, coverage, faithfulness.
    dev2 = [
        {"id": "a", "kinds": ["long"], "text": "Long note about Marta and the boiler, 3 quotes.",
         "category": "personal", "urgency": 4, "summary": "x",
         "tasks": [{"text": "Call Marta", "due": "2026-03-02"}, {"text": "Compare the quotes", "due": None}],
         "key_facts": [["boiler"], ["3 quotes", "three quotes"]]},
        {"id": "b", "kinds": ["lang", "implied"], "text": "Ο εκτυπωτής δεν έχει μελάνι.",
         "category": "work", "urgency": 2, "summary": "x",
         "tasks": [{"text": "Αγόρασε μελάνι", "due": None}]},
        {"id": "c", "kinds": [], "text": "Pay rent", "category": "finance", "urgency": 2,
         "summary": "x", "tasks": ["Pay rent"]},
    ]
    preds2 = [
        {"id": "a", "valid": True, "category": "personal", "urgency": 4, "stage": "model",
         "tasks": [{"text": "Call Marta", "due": "2026-03-02"}, "Compare quotes"],
         "summary": "Marta and the boiler: call her Monday.", "ms": 10},
        {"id": "b", "valid": True, "category": "personal", "urgency": 2,
         "tasks": [{"text": "αγόρασε μελάνι", "due": "2026-03-03"}],
         "summary": "Out of ink at Epson.", "ms": 20},
        {"id": "c", "valid": True, "category": "finance", "urgency": 4, "tasks": ["Pay the rent"],
         "summary": "Pay rent.", "ms": 30},
    ]
    r = score(dev2, preds2)
    check("split sizes", (r["all"]["notes"], r["dev"]["notes"], r["held_out"]["notes"]), (3, 2, 1))
    check("top level is all", r["task_f1"], r["all"]["task_f1"])
    check("all f1", r["all"]["task_f1"], 1.0)
    # a: both dues right (the string "Compare quotes" has due null, as labelled); b: wrong;
    # c's labels are strings, so its pair has no labelled due.
    check("due pairs", r["all"]["due_pairs"], 3)
    check("due accuracy", r["all"]["due_accuracy"], 2 / 3)
    check("due accuracy held out", r["held_out"]["due_accuracy"], 0.0)
    check("due pairs dev", r["dev"]["due_pairs"], 2)
    check("coverage", r["all"]["key_fact_coverage"], 0.5)
    check("coverage held out, no notes", r["held_out"]["key_fact_coverage"], None)
    check("faithful key-fact notes", r["all"]["faithfulness_key_fact_notes"], 1.0)
    check("faithful all", r["all"]["faithfulness_all"], 2 / 3)  # "Epson" is not in note b
    check("kind long notes", r["all"]["by_kind"]["long"]["notes"], 1)
    check("kind lang category", r["all"]["by_kind"]["lang"]["category_accuracy"], 0.0)
    check("kind implied f1", r["all"]["by_kind"]["implied"]["task_f1"], 1.0)
    check("kind others urgency", r["all"]["by_kind"]["others"]["urgency_within_one"], 0.0)
    check("kind all category", r["all"]["by_kind"]["all"]["category_accuracy"], 2 / 3)
    check("kind with no notes", r["held_out"]["by_kind"]["long"]["task_f1"], None)
    # A missing prediction scores zero on the new figures too.
    r = score(dev2, preds2[1:])
    check("missing: coverage", r["all"]["key_fact_coverage"], 0.0)
    check("missing: faithful", r["all"]["faithfulness_key_fact_notes"], 0.0)
    check("missing: due pairs", r["all"]["due_pairs"], 1)

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
    ap.add_argument("--devset", default=DEFAULT_DEVSET,
                    help="a folder of *.jsonl (read in sorted order) or one JSONL file")
    ap.add_argument("--subset", action="store_true",
                    help="score only the devset notes that have a prediction")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--by-language", choices=SPLITS, metavar="SPLIT",
                    help="also a table per labelled language over one split (all, dev or held_out)")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    if not args.predictions:
        ap.error("a predictions file is required (or --self-test)")
    devset = load_devset(args.devset)
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
    if args.by_language:
        print()
        print(format_languages(by_language(devset, preds, args.by_language, subset=args.subset), args.by_language))
    return 0


if __name__ == "__main__":
    sys.exit(main())
