"""The peer: llama-cpp-python on the same model, prompts and threads. Prints `key value` lines."""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from peer_format import plain_prompt  # noqa: E402

from llama_cpp import Llama, LlamaGrammar

directory = sys.argv[1] if len(sys.argv) > 1 else "bench/ai"
prompts = json.load(open(os.path.join(directory, "prompts.json")))
schema = json.load(open(os.path.join(directory, "schema.json")))
out = os.environ.get("NOTES_BENCH_OUT", os.path.join(directory, "out"))
system = open(os.path.join(out, "system.txt")).read()
threads = int(os.environ.get("NOTES_BENCH_THREADS", "2"))
deps = os.environ.get("NOTES_DEPS", "/opt/notes-deps")
model = os.environ.get("NOTES_MODEL", os.path.join(deps, "default-model.gguf"))


def report(key, value):
    print(key, round(value, 3), flush=True)


start = time.perf_counter()
llm = Llama(model_path=model, n_ctx=2048, n_threads=threads, n_threads_batch=threads, n_batch=512, verbose=False, seed=0)
report("peer_model_load_s", time.perf_counter() - start)


def stream(messages, max_tokens, response_format=None):
    """Generation tokens/s measured from the first token on (prompt evaluation excluded)."""
    first = None
    count = 0
    text = ""
    start = time.perf_counter()
    if llm.metadata.get("tokenizer.chat_template"):
        chunks = llm.create_chat_completion(messages=messages, max_tokens=max_tokens, temperature=0.0, top_k=1,
                                            response_format=response_format, stream=True)
    else:
        # No chat template (Gemma 3 270M base): ours uses its plain format, so the peer does too,
        # with llama.cpp's grammar built from the same schema.
        grammar = LlamaGrammar.from_json_schema(json.dumps(response_format["schema"]), verbose=False) if response_format else None
        chunks = llm.create_completion(prompt=plain_prompt(messages), max_tokens=max_tokens, temperature=0.0, top_k=1,
                                       grammar=grammar, stream=True)
    for chunk in chunks:
        choice = chunk["choices"][0]
        if "text" in choice:
            choice = {"delta": {"content": choice["text"] or None}}
        delta = choice["delta"].get("content")
        if delta is None:
            continue
        count += 1
        text += delta
        if first is None:
            first = time.perf_counter()
    end = time.perf_counter()
    rate = (count - 1) / (end - first) if first and count > 1 else 0.0
    return text, rate, end - start


def valid(text):
    try:
        value = json.loads(text)
    except ValueError:
        return False
    if not isinstance(value, dict) or set(value) != {"category", "urgency", "tasks", "summary"}:
        return False
    if value["category"] not in schema["properties"]["category"]["enum"]:
        return False
    if type(value["urgency"]) is not int or not 1 <= value["urgency"] <= 5:
        return False
    tasks = value["tasks"]
    if not isinstance(tasks, list) or len(tasks) > 3 or any(not isinstance(t, str) or len(t) > 60 for t in tasks):
        return False
    return isinstance(value["summary"], str) and len(value["summary"]) <= 100


stream([{"role": "user", "content": "Say hello."}], 8)
_, rate, _ = stream([{"role": "user", "content": prompts["story"]}], 128)
report("peer_unconstrained_tok_s", rate)

fmt = {"type": "json_object", "schema": schema}
rates, times, good = [], [], 0
for note in prompts["notes"]:
    text, rate, elapsed = stream([{"role": "system", "content": system}, {"role": "user", "content": note}], 256, fmt)
    rates.append(rate)
    times.append(elapsed)
    ok = valid(text)
    good += ok
    print("peer_output" if ok else "peer_invalid", text.replace("\n", " "), flush=True)
report("peer_grammar_tok_s", sum(rates) / len(rates))
report("peer_json_valid_percent", 100.0 * good / len(prompts["notes"]))
report("peer_json_mean_request_s", sum(times) / len(times))
report("peer_json_total_s", sum(times))
with open("/proc/self/statm") as statm:
    report("peer_rss_mb", int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1048576)
