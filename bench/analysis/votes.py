#!/usr/bin/env python3
"""The category's voices added up again from one run of `analysis-eval --category-scores`: the
scorer's calibrated scores and keywords ("scores"), the reader's own choice ("reader_category",
one keyword's weight), a category tag ("tagged") and the note's vector beside the bundled
examples' (OUT.examples.jsonl), so that the vote's weight, how many neighbours vote and how
steeply their weight falls with distance can be chosen on the dev part without running the
models again. The same arithmetic as NoteAnalyzer.category(of:reader:) and
CategoryNeighbours.votes(for:among:); --check says whether it gives the run's own categories.

  python3 bench/analysis/votes.py --devset DEV.jsonl OUT.jsonl [--check] [--grid]
      [--by-language] [--examples FILE] [--weight W --voters K --temperature T]
"""
import argparse
import itertools
import json
import math

CATEGORIES = ["work", "personal", "study", "health", "finance", "other"]  # Category.allCases
KEYWORD_WEIGHT = 0.75


def load(path):
    return [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]


def votes(vector, examples, voters, temperature):
    """Shares of the `voters` nearest examples, each weighted exp((cos - top) / temperature)."""
    nearest = sorted(((sum(a * b for a, b in zip(vector, e["vector"])), e["category"]) for e in examples), reverse=True)
    shares = dict.fromkeys(CATEGORIES, 0.0)
    if not nearest:
        return shares
    top = nearest[0][0]
    for similarity, category in nearest[:voters]:
        shares[category] += math.exp((similarity - top) / temperature)
    total = sum(shares.values())
    return {c: v / total for c, v in shares.items()}


def category(record, shares, weight, with_reader=True):
    if record.get("tagged"):
        return record["tagged"]
    total = [record["scores"][c] for c in CATEGORIES]
    reader = record.get("reader_category")
    if with_reader and reader in CATEGORIES:
        total[CATEGORIES.index(reader)] += KEYWORD_WEIGHT
    if shares is not None:
        total = [t + weight * shares[c] for t, c in zip(total, CATEGORIES)]
    best = 0
    for i in range(len(total)):
        if total[i] > total[best]:
            best = i
    return CATEGORIES[best]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--devset", required=True)
    parser.add_argument("run")
    parser.add_argument("--weight", type=float, default=1.5)
    parser.add_argument("--voters", type=int, default=7)
    parser.add_argument("--temperature", type=float, default=0.02)
    parser.add_argument("--examples", help="the bundled examples' vectors (default RUN.examples.jsonl)")
    parser.add_argument("--check", action="store_true", help="the run's categories against these parameters'")
    parser.add_argument("--grid", action="store_true", help="accuracy over a grid of parameters")
    parser.add_argument("--by-language", action="store_true", help="English against the other languages, short against long notes")
    args = parser.parse_args()

    labels = {d["id"]: d for d in load(args.devset)}
    rows = [r for r in load(args.run) if r.get("valid") and "scores" in r and r["id"] in labels]
    examples = load(args.examples or args.run + ".examples.jsonl")
    print(f"{len(rows)} notes with scores")

    def accuracy(weight, voters, temperature, with_reader=True):
        right = 0
        for r in rows:
            shares = votes(r["vector"], examples, voters, temperature) if weight and "vector" in r else None
            right += category(r, shares, weight, with_reader) == labels[r["id"]]["category"]
        return right / len(rows)

    if args.check:
        same = sum(category(r, votes(r["vector"], examples, args.voters, args.temperature) if "vector" in r else None, args.weight)
                   == r["category"] for r in rows)
        print(f"the run's own category reproduced for {same} of {len(rows)} notes")
    print(f"no vote: {accuracy(0, args.voters, args.temperature):.1%} (scorer alone {accuracy(0, 1, 1, False):.1%})")
    print(f"vote alone (argmax): {sum(max(votes(r['vector'], examples, args.voters, args.temperature).items(), key=lambda kv: kv[1])[0] == labels[r['id']]['category'] for r in rows) / len(rows):.1%}")
    print(f"with the vote (w {args.weight}, k {args.voters}, t {args.temperature}): {accuracy(args.weight, args.voters, args.temperature):.1%}")
    if args.by_language:
        groups = {}
        for r in rows:
            d = labels[r["id"]]
            for key in ("English" if d["lang"] == "en" else "other languages", "long (over 150 words)" if len(d["text"].split()) > 150 else "short"):
                groups.setdefault(key, []).append(r)
        for key, members in sorted(groups.items()):
            shares = {r["id"]: votes(r["vector"], examples, args.voters, args.temperature) for r in members}
            without = sum(category(r, None, 0) == labels[r["id"]]["category"] for r in members) / len(members)
            with_vote = sum(category(r, shares[r["id"]], args.weight) == labels[r["id"]]["category"] for r in members) / len(members)
            print(f"{key:<24} {len(members):>4} notes: no vote {without:.1%}, with the vote {with_vote:.1%}")
    if args.grid:
        results = []
        for weight, voters, temperature in itertools.product((0.5, 1, 1.5, 2, 3, 4), (3, 5, 7, 11, 15), (0.01, 0.02, 0.03, 0.05)):
            results.append((accuracy(weight, voters, temperature), weight, voters, temperature))
        for acc, weight, voters, temperature in sorted(results, reverse=True)[:15]:
            print(f"{acc:.1%}  w {weight}  k {voters}  t {temperature}")


if __name__ == "__main__":
    main()
