#!/usr/bin/env python3
"""The peer: note analysis through llama-cpp-python's JSON-schema constrained decoding.

Run it with the notes venv's interpreter (it needs llama_cpp):

    /opt/notes-deps/venv/bin/python bench/analysis/peer.py [--limit N] [--out FILE]
                                                           [--devset FILE] [--model FILE]

Model: --model, else $NOTES_MODEL, else /opt/notes-deps/default-model.gguf
(SmolLM2-135M-Instruct, ChatML). The system prompt comes from prompt.txt beside this file;
the user message carries the note's created and today dates and its text, in the format
documented at the top of prompt.txt. Decoding is greedy (temperature 0) and constrained by
SCHEMA. Each note gives one predictions line:

    {"id", "category", "urgency", "tasks", "summary", "ms", "valid"}

valid is true only when the output parsed as JSON and met every constraint: exactly the four
keys, category in the enum, urgency an integer 1..5, tasks an array of at most 6 strings,
summary a string of at most 30 words. When it is false the fields hold whatever parsed (or
null) and "error" says why. ms is the wall time of the create_chat_completion call.
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from peer_format import plain_prompt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MODEL = "/opt/notes-deps/default-model.gguf"
CATEGORIES = ["work", "personal", "study", "health", "finance", "other"]

SCHEMA = {
    "type": "object",
    "properties": {
        "category": {"type": "string", "enum": CATEGORIES},
        "urgency": {"type": "integer", "minimum": 1, "maximum": 5},
        "tasks": {"type": "array", "items": {"type": "string"}, "maxItems": 6},
        "summary": {"type": "string"},
    },
    "required": ["category", "urgency", "tasks", "summary"],
    "additionalProperties": False,
}

N_CTX = 4096
MAX_TOKENS = 256


def load_prompt(path=os.path.join(HERE, "prompt.txt")):
    """The system prompt: prompt.txt after its '#' header, i.e. after the first empty line."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    _, sep, body = text.partition("\n\n")
    if not sep:
        sys.exit(f"{path}: no empty line after the header")
    return body.strip()


def user_message(created, today, text):
    return f"Created: {created}\nToday: {today}\nNote:\n{text}"


def check(obj):
    """Returns None when obj satisfies every constraint, else the first violation."""
    if not isinstance(obj, dict):
        return "not an object"
    keys = set(obj)
    if keys != set(SCHEMA["required"]):
        return f"keys {sorted(keys)}"
    if obj["category"] not in CATEGORIES:
        return f"category {obj['category']!r}"
    u = obj["urgency"]
    if not isinstance(u, int) or isinstance(u, bool) or not 1 <= u <= 5:
        return f"urgency {u!r}"
    tasks = obj["tasks"]
    if not isinstance(tasks, list) or not all(isinstance(t, str) for t in tasks):
        return "tasks not a list of strings"
    if len(tasks) > 6:
        return f"{len(tasks)} tasks"
    if not isinstance(obj["summary"], str):
        return "summary not a string"
    words = len(obj["summary"].split())
    if words > 30:
        return f"summary of {words} words"
    return None


def analyse(llm, system_prompt, note):
    messages = [
        {"role": "system", "content": system_prompt},
        {"role": "user", "content": user_message(note["created"], note["today"], note["text"])},
    ]
    start = time.perf_counter()
    try:
        if llm.metadata.get("tokenizer.chat_template"):
            out = llm.create_chat_completion(
                messages=messages,
                response_format={"type": "json_object", "schema": SCHEMA},
                temperature=0.0,
                max_tokens=MAX_TOKENS,
            )
            raw = out["choices"][0]["message"]["content"] or ""
        else:
            # No chat template (Gemma 3 270M base): the same plain format as ours
            # (Sources/AI/Runtime/PromptFormat.swift), and llama.cpp's grammar from the schema.
            out = llm.create_completion(
                prompt=plain_prompt(messages),
                grammar=LlamaGrammar.from_json_schema(json.dumps(SCHEMA), verbose=False),
                temperature=0.0,
                max_tokens=MAX_TOKENS,
            )
            raw = out["choices"][0]["text"] or ""
        finish = out["choices"][0].get("finish_reason")
        error = None
    except Exception as e:  # e.g. a prompt longer than the context
        raw, finish, error = "", None, f"{type(e).__name__}: {e}"
    ms = (time.perf_counter() - start) * 1000.0

    row = {"id": note["id"], "category": None, "urgency": None, "tasks": None, "summary": None,
           "ms": round(ms, 1), "valid": False}
    if error is None:
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as e:
            obj = None
            error = f"unparsable ({finish}): {e}"
        if obj is not None:
            if isinstance(obj, dict):
                for key in ("category", "urgency", "tasks", "summary"):
                    row[key] = obj.get(key)
            error = check(obj)
    if error is None:
        row["valid"] = True
    else:
        row["error"] = error
        row["raw"] = raw[:2000]
    return row


def main():
    ap = argparse.ArgumentParser(description="llama-cpp-python JSON-schema peer for note analysis")
    ap.add_argument("--devset", default=os.path.join(HERE, "devset", "core.jsonl"),
                    help="one JSONL file (run.sh passes the whole dev set, devset/*.jsonl joined)")
    ap.add_argument("--out", default="-", help="predictions JSONL (default: stdout)")
    ap.add_argument("--limit", type=int, default=None, help="analyse only the first N notes")
    ap.add_argument("--resume", action="store_true",
                    help="keep the lines already in --out and analyse only the notes missing there")
    ap.add_argument("--model", default=os.environ.get("NOTES_MODEL") or DEFAULT_MODEL)
    args = ap.parse_args()

    from llama_cpp import Llama, LlamaGrammar  # imported late so --help works without the venv
    globals()["LlamaGrammar"] = LlamaGrammar

    with open(args.devset, encoding="utf-8") as fh:
        notes = [json.loads(line) for line in fh if line.strip()]
    if args.limit is not None:
        notes = notes[: args.limit]
    system_prompt = load_prompt()
    done = set()
    if args.resume and args.out != "-" and os.path.exists(args.out):
        kept = []
        with open(args.out, encoding="utf-8") as fh:
            for line in fh:
                try:
                    done.add(json.loads(line)["id"])
                    kept.append(line.rstrip("\n") + "\n")
                except (json.JSONDecodeError, KeyError, TypeError):
                    pass  # a line cut off by an interrupted run: that note is analysed again
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.writelines(kept)
        notes = [n for n in notes if n["id"] not in done]
        if done:
            print(f"peer: resuming, {len(done)} notes already in {args.out}", file=sys.stderr)

    llm = Llama(model_path=args.model, n_ctx=N_CTX, n_threads=2, n_threads_batch=2,
                chat_format="chatml", seed=0, verbose=False)

    out = sys.stdout if args.out == "-" else open(args.out, "a" if done else "w", encoding="utf-8")
    total_start = time.perf_counter()
    n_valid = 0
    try:
        for i, note in enumerate(notes, 1):
            row = analyse(llm, system_prompt, note)
            n_valid += row["valid"]
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            out.flush()
            print(f"[{i}/{len(notes)}] {note['id']} {row['ms']:.0f} ms"
                  f"{'' if row['valid'] else ' INVALID: ' + row['error']}", file=sys.stderr)
    finally:
        if out is not sys.stdout:
            out.close()
    print(f"peer: {len(notes)} notes, {n_valid} valid, "
          f"{time.perf_counter() - total_start:.0f} s total, model {args.model}", file=sys.stderr)


if __name__ == "__main__":
    main()
