#!/usr/bin/env python3
"""The floor for the reader: raw llama.cpp (through llama-cpp-python's bindings, no grammar, no
Swift) doing the same token work as our reader did for each note of an analysis-eval run.

usage: raw_reader.py MODEL.gguf OURS.jsonl [--batch N] [--threads T]

OURS.jsonl is analysis-eval's output for notes read one at a time (each line's reader_tokens:
reused prefix, prompt, sampled and fast-forwarded tokens). For each note the replay keeps the
prefix in the cache, evaluates the note's prompt and the answer's fast-forwarded tokens in one
batch (ours evaluates those in several steps, so this is the cheaper way), then generates the
sampled tokens one step each with a greedy pick over the whole vocabulary; then again with every
answer token generated one step each (stepwise: llama.cpp's own loop). With --batch N it
also replays the notes N at a time: one sequence each, forked from the prefix, every prompt in
one batch, then one step for all the sequences still generating: what batching can give on
this machine at best. Token ids do not change the arithmetic, so they are arbitrary.
Prints one JSON object: per note milliseconds, one at a time (both ways) and batched.
"""
import json
import sys
import time

import llama_cpp as L
import numpy as np


def main():
    args = sys.argv[1:]
    model_path, ours_path = args[0], args[1]
    batch = int(args[args.index("--batch") + 1]) if "--batch" in args else 1
    threads = int(args[args.index("--threads") + 1]) if "--threads" in args else 2
    notes = []
    for line in open(ours_path):
        record = json.loads(line)
        tokens = record.get("reader_tokens")
        if tokens:
            notes.append((record["id"], tokens))
    if not notes:
        sys.exit("no reader_tokens in " + ours_path)
    prefix = notes[0][1].get("reused", 900)

    # Kept referenced: llama.cpp calls it for as long as the process runs.
    global quiet
    quiet = L.llama_log_callback(lambda level, text, data: None)
    L.llama_log_set(quiet, None)
    L.llama_backend_init()
    model = L.llama_model_load_from_file(model_path.encode(), L.llama_model_default_params())
    vocabulary = L.llama_vocab_n_tokens(L.llama_model_get_vocab(model))

    def context(sequences):
        params = L.llama_context_default_params()
        # As the reader's session: 4,096 tokens and 1,536 more for each further note of a batch.
        params.n_ctx = 4096 + (sequences - 1) * 1536
        params.n_seq_max = sequences
        params.kv_unified = True
        params.n_batch = params.n_ubatch = 512
        params.n_threads = params.n_threads_batch = threads
        params.no_perf = True
        return L.llama_init_from_model(model, params)

    work = L.llama_batch_init(512, 0, 1)

    def decode(ctx, entries):
        """entries: (token, position, sequence, wants logits); in chunks of 512."""
        for start in range(0, len(entries), 512):
            chunk = entries[start:start + 512]
            work.n_tokens = len(chunk)
            for slot, (token, position, sequence, logits) in enumerate(chunk):
                work.token[slot] = token
                work.pos[slot] = position
                work.n_seq_id[slot] = 1
                work.seq_id[slot][0] = sequence
                work.logits[slot] = 1 if logits else 0
            status = L.llama_decode(ctx, work)
            if status != 0:
                sys.exit(f"llama_decode returned {status}")

    def pick(ctx, slot):
        return int(np.argmax(np.ctypeslib.as_array(L.llama_get_logits_ith(ctx, slot), shape=(vocabulary,))))

    def fill_prefix(ctx):
        decode(ctx, [(100 + i % 1000, i, 0, i == prefix - 1) for i in range(prefix)])

    # One note at a time, twice: the fast-forwarded tokens evaluated with the prompt (the
    # floor), and generated one step each like the rest of the answer (llama.cpp's own loop,
    # which has no schema to know them by).
    ctx = context(1)
    memory = L.llama_get_memory(ctx)
    fill_prefix(ctx)
    single, stepwise = {}, {}
    for note, tokens in notes:
        for lumped, into in ((True, single), (False, stepwise)):
            begin = time.perf_counter()
            L.llama_memory_seq_rm(memory, 0, prefix, -1)
            evaluated = tokens["prompt"] + (tokens["fast_forwarded"] if lumped else 0)
            generated = tokens["sampled"] + (0 if lumped else tokens["fast_forwarded"])
            decode(ctx, [(2000 + i % 1000, prefix + i, 0, i == evaluated - 1) for i in range(evaluated)])
            token = pick(ctx, -1)
            position = prefix + evaluated
            for _ in range(generated):
                decode(ctx, [(token % 1000 + 3000, position, 0, True)])
                token = pick(ctx, -1)
                position += 1
            into[note] = (time.perf_counter() - begin) * 1000
    L.llama_free(ctx)

    batched = {}
    if batch > 1:
        ctx = context(batch)
        memory = L.llama_get_memory(ctx)
        fill_prefix(ctx)
        for start in range(0, len(notes), batch):
            group = notes[start:start + batch]
            begin = time.perf_counter()
            entries = []
            positions = []
            for sequence, (_, tokens) in enumerate(group):
                if sequence > 0:
                    L.llama_memory_seq_rm(memory, sequence, -1, -1)
                    L.llama_memory_seq_cp(memory, 0, sequence, 0, prefix)
                else:
                    L.llama_memory_seq_rm(memory, 0, prefix, -1)
                evaluated = tokens["prompt"] + tokens["fast_forwarded"]
                entries += [(2000 + i % 1000, prefix + i, sequence, i == evaluated - 1) for i in range(evaluated)]
                positions.append(prefix + evaluated)
            decode(ctx, entries)
            left = [tokens["sampled"] for _, tokens in group]
            step = 0
            while any(left):
                rows = [sequence for sequence in range(len(group)) if left[sequence] > 0]
                decode(ctx, [(3000 + step % 1000, positions[sequence], sequence, True) for sequence in rows])
                for slot, sequence in enumerate(rows):
                    pick(ctx, slot)
                    positions[sequence] += 1
                    left[sequence] -= 1
                step += 1
            elapsed = (time.perf_counter() - begin) * 1000
            for note, _ in group:
                batched[note] = elapsed / len(group)
        L.llama_free(ctx)
    print(json.dumps({"prefix": prefix, "threads": threads, "batch": batch, "single_ms": single, "stepwise_ms": stepwise,
                      "batched_ms": batched}))


if __name__ == "__main__":
    main()
