#!/usr/bin/env python3
"""The peer for the reading model: llama-cpp-python's JSON-schema path on the same GGUF, with the
same instructions and prompt as NoteReader (read from its Swift source, so they cannot drift),
greedy, 2 threads. It writes what the model answers, unchecked: no grounding, no due days (the
due words are not dates), the reader's category as it is (ours adds it to a likelihood scorer's)
and no urgency (ours is arithmetic), so compare tasks, summaries, category and time.

    peer_reader.py --devset FILE --out PREDICTIONS.jsonl [--limit N] [--model GGUF]
"""
import argparse
import datetime
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEPS = os.environ.get("NOTES_DEPS", "/opt/notes-deps")


def reader_instructions():
    source = open(os.path.join(ROOT, "Sources", "AI", "NoteReader.swift"), encoding="utf-8").read()
    block = re.search(r'static let instructions = """\n(.*?)\n\s*"""', source, re.S).group(1)
    lines = block.split("\n")
    indent = min(len(l) - len(l.lstrip()) for l in lines if l.strip())
    return "\n".join(l[indent:] for l in lines)


SCHEMA = {
    "type": "object",
    "properties": {
        "tasks": {"type": "array", "maxItems": 6, "items": {
            "type": "object",
            "properties": {"task": {"type": "string", "maxLength": 90}, "due": {"type": "string", "maxLength": 32}},
            "required": ["task", "due"]}},
        "summary": {"type": "string", "maxLength": 260},
        "category": {"type": "string", "enum": ["work", "personal", "study", "health", "finance", "other"]},
    },
    "required": ["tasks", "summary", "category"],
}


def prompt(note):
    day = datetime.date.fromisoformat(note["created"][:10])
    return "Note written on %s (%s):\n%s" % (day.isoformat(), day.strftime("%A"), note["text"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--devset", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--model", default=os.environ.get("NOTES_READER_MODEL") or DEPS + "/reader-model.gguf")
    args = ap.parse_args()
    from llama_cpp import Llama
    llm = Llama(args.model, n_ctx=4096, n_threads=2, verbose=False)
    system = reader_instructions()
    notes = [json.loads(l) for l in open(args.devset, encoding="utf-8") if l.strip()][: args.limit]
    with open(args.out, "w", encoding="utf-8") as out:
        for index, note in enumerate(notes):
            start = time.time()
            record = {"id": note["id"]}
            try:
                answer = llm.create_chat_completion(
                    messages=[{"role": "system", "content": system}, {"role": "user", "content": prompt(note)}],
                    response_format={"type": "json_object", "schema": SCHEMA}, temperature=0, max_tokens=900)
                content = json.loads(answer["choices"][0]["message"]["content"])
                record.update(valid=True, tasks=[{"text": t["task"], "due": None} for t in content["tasks"]],
                              summary=content["summary"], category=content["category"], usage=answer["usage"])
            except Exception as error:  # the peer's failures count as invalid notes
                record.update(valid=False, error=str(error))
            record["ms"] = (time.time() - start) * 1000
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            out.flush()
            print("%d/%d %.1f s" % (index + 1, len(notes), record["ms"] / 1000), file=sys.stderr)


if __name__ == "__main__":
    main()
