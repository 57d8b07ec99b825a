"""Notes for bench/ai/backlog.sh, and its report.

backlog.py notes COUNT: the first COUNT short notes (at most 80 words) of the dev part of
bench/analysis/devset (core, then world), score.py's split, so held-out notes are never read;
repeated when there are fewer.
backlog.py report DIR: per mode, notes per minute (time per note as analysis-eval measured it,
a batch's time shared by its notes) and the reader's generation tokens per second (one note at
a time only), over the notes every mode has done; then batched / plain, copies / plain, and the
agreement of category and tasks."""
import glob, hashlib, json, os, sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "analysis", "devset")


def held_out(note_id):
    return int(hashlib.sha256(str(note_id).encode("utf-8")).hexdigest()[:8], 16) % 3 == 0


def notes(count):
    short = []
    for name in ("core", "world"):
        for line in open(os.path.join(ROOT, name + ".jsonl"), encoding="utf-8"):
            note = json.loads(line)
            if not held_out(note["id"]) and len(note["text"].split()) <= 80:
                short.append(note)
    for index in range(count):
        note = dict(short[index % len(short)])
        if index >= len(short):
            note["id"] = "%s-%d" % (note["id"], index // len(short))
        print(json.dumps({k: note[k] for k in ("id", "created", "today", "text")}, ensure_ascii=False))


def report(directory):
    rows = {}
    for mode in ("plain", "copies", "batched"):
        if not glob.glob(os.path.join(directory, mode + "-*.jsonl")):
            continue
        rows[mode] = []
        for path in sorted(glob.glob(os.path.join(directory, mode + "-*.jsonl")), key=lambda p: int(p.rsplit("-", 1)[1].split(".")[0])):
            rows[mode] += [json.loads(line) for line in open(path, encoding="utf-8")]
    # The same notes in every mode: a run stopped early has fewer batched ones.
    common = set.intersection(*(set(r["id"] for r in records) for records in rows.values()))
    figures = {}
    for mode, records in rows.items():
        records = [r for r in records if r["id"] in common]
        ms = sum(r["ms"] for r in records)
        tokens = [r["reader_tokens"] for r in records if "reader_tokens" in r]
        answer = sum(t["sampled"] + t["fast_forwarded"] + t.get("drafted", 0) for t in tokens)
        generation = sum(t.get("generation_ms", 0) for t in tokens)
        drafted = sum(t.get("drafted", 0) for t in tokens)
        figures[mode] = {
            "notes": len(records),
            "valid": sum(1 for r in records if r.get("valid")),
            "notes_per_minute": len(records) * 60000 / ms if ms else 0,
            "generation_tok_s": answer * 1000 / generation if generation else None,
            "drafted_share": drafted / answer if answer else None,
        }
    for mode, f in figures.items():
        print("%-8s notes %d (valid %d), notes/min %.2f, generation tok/s %s, drafted %s" % (
            mode, f["notes"], f["valid"], f["notes_per_minute"],
            "%.1f" % f["generation_tok_s"] if f["generation_tok_s"] else "-",
            "%.0f%%" % (100 * f["drafted_share"]) if f["drafted_share"] is not None else "-"))
    plain = figures["plain"]
    for mode in ("batched", "copies"):
        if mode in figures:
            print("%s / plain, notes per minute: %.2fx" % (mode, figures[mode]["notes_per_minute"] / plain["notes_per_minute"]))
    if "copies" in figures and plain["generation_tok_s"] and figures["copies"]["generation_tok_s"]:
        print("copies / plain, generation tokens per second: %.2fx" % (figures["copies"]["generation_tok_s"] / plain["generation_tok_s"]))

    # Raw llama.cpp doing the same token work (raw_reader.py, one file a chunk of plain notes).
    raw = {"single_ms": {}, "stepwise_ms": {}, "batched_ms": {}}
    for path in glob.glob(os.path.join(directory, "raw-*.json")):
        replay = json.load(open(path))
        for field in raw:
            raw[field].update(replay.get(field, {}))
    ids = [r["id"] for r in rows["plain"] if r["id"] in common and r["id"] in raw["single_ms"]]
    if ids:
        ours = {r["id"]: r for r in rows["plain"]}
        mean = lambda values: sum(values) / len(values)
        plain_ms = mean([ours[i]["ms"] for i in ids])
        tokens = [ours[i]["reader_tokens"] for i in ids]
        print("evaluated per note (plain, %d notes): prompt %.1f tokens (the note and its framing; a prefix of %d reused), "
              "answer %.1f (%.1f sampled, %.1f fast-forwarded)" % (
                  len(ids), mean([t["prompt"] for t in tokens]), tokens[0].get("reused", 0),
                  mean([t["sampled"] + t["fast_forwarded"] for t in tokens]), mean([t["sampled"] for t in tokens]),
                  mean([t["fast_forwarded"] for t in tokens])))
        floor, stepwise = mean([raw["single_ms"][i] for i in ids]), mean([raw["stepwise_ms"][i] for i in ids])
        print("raw llama.cpp, one at a time: %.0f ms a note (fast-forwarded tokens with the prompt), %.0f ms (every answer "
              "token a step); ours plain %.0f ms: %.2fx and %.2fx (target <= 1.15x)" % (floor, stepwise, plain_ms, plain_ms / floor, plain_ms / stepwise))
        both = [i for i in ids if i in raw["batched_ms"]]
        if both and "batched" in rows:
            batched = {r["id"]: r for r in rows["batched"]}
            both = [i for i in both if i in batched]
            raw_gain = mean([raw["single_ms"][i] for i in both]) / mean([raw["batched_ms"][i] for i in both])
            ours_gain = mean([ours[i]["ms"] for i in both]) / mean([batched[i]["ms"] for i in both])
            print("batched / one at a time, notes per minute: raw llama.cpp %.2fx, ours %.2fx (%d notes); ours batched %.0f ms a "
                  "note against raw batched %.0f ms: %.2fx" % (
                      raw_gain, ours_gain, len(both), mean([batched[i]["ms"] for i in both]), mean([raw["batched_ms"][i] for i in both]),
                      mean([batched[i]["ms"] for i in both]) / mean([raw["batched_ms"][i] for i in both])))

    def key(r):
        return (r.get("category"), [t["text"] for t in r.get("tasks", [])], [t["due"] for t in r.get("tasks", [])])
    base = {r["id"]: r for r in rows["plain"]}
    for mode in [m for m in ("copies", "batched") if m in rows]:
        first = [r for r in rows[mode] if r["id"] in base][:30]
        agree = sum(1 for r in first if key(r) == key(base[r["id"]]))
        every = sum(1 for r in rows[mode] if r["id"] in base and key(r) == key(base[r["id"]]))
        print("%s agrees with plain (category and tasks): first %d notes %d, all %d of %d" % (
            mode, len(first), agree, every, len(rows[mode])))
        for r in first:
            if key(r) != key(base[r["id"]]):
                print("  differs: %s plain %s / %s %s" % (r["id"], key(base[r["id"]]), mode, key(r)))


if __name__ == "__main__":
    if sys.argv[1] == "notes":
        notes(int(sys.argv[2]))
    else:
        report(sys.argv[2])
