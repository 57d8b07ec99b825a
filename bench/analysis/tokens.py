#!/usr/bin/env python3
"""Tokens the reader evaluated per note, from analysis-eval's predictions ("reader_tokens"):
the prompt (the note and its framing; the prewarmed instructions are reused, not evaluated)
and the answer (sampled one by one, or fast-forwarded where the schema fixed the tokens).
The floor is the note's tokens plus the answer's; the framing (the date line and the chat
template's turn markers) is what lies above it: 25 tokens with the default reader
(Qwen2.5-Coder's ChatML turn and "Note written on 2026-03-19 (Thursday):", counted with its
tokenizer).

    tokens.py PREDICTIONS.jsonl [--framing N]
"""
import argparse
import json
import statistics


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("predictions")
    parser.add_argument("--framing", type=int, default=25,
                        help="prompt tokens of the framing alone (default 25: the default reader's)")
    args = parser.parse_args()
    rows = [json.loads(line) for line in open(args.predictions, encoding="utf-8") if line.strip()]
    counts = [row["reader_tokens"] for row in rows if "reader_tokens" in row]
    if not counts:
        raise SystemExit("no reader_tokens in %s (run analysis-eval with a reader)" % args.predictions)
    framing = args.framing
    prompt = [c["prompt"] for c in counts]
    answer = [c["sampled"] + c["fast_forwarded"] for c in counts]
    evaluated = sum(prompt) + sum(answer)
    floor = sum(p - framing for p in prompt) + sum(answer)
    print("notes read: %d" % len(counts))
    print("prompt tokens evaluated per note: mean %.0f, median %.0f (framing %d of them)"
          % (statistics.mean(prompt), statistics.median(prompt), framing))
    print("answer tokens per note: mean %.0f, median %.0f; fast-forwarded by the schema: %.0f%%"
          % (statistics.mean(answer), statistics.median(answer),
             100 * sum(c["fast_forwarded"] for c in counts) / max(1, sum(answer))))
    print("evaluated / floor (note + answer): %.3f" % (evaluated / max(1, floor)))


if __name__ == "__main__":
    main()
