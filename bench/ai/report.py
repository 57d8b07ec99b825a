"""Sets the Swift figures beside the peer's from the same run, with the ratios the issue asks for."""
import sys

import glob
import statistics

out = sys.argv[1]
samples = {}
for name in sorted(glob.glob(f"{out}/*-[0-9]*.txt")):
    for line in open(name):
        parts = line.split()
        if len(parts) == 2:
            try:
                samples.setdefault(parts[0], []).append(float(parts[1]))
            except ValueError:
                pass
# Medians over the rounds; ratios are of medians.
figures = {key: statistics.median(values) for key, values in samples.items()}
print(f"rounds: {max(len(v) for v in samples.values())}")

f = figures.get
rows = [
    ("Unconstrained greedy decoding, tok/s", f("unconstrained_tok_s"), f("peer_unconstrained_tok_s"), None),
    ("Guided decoding, tok/s (ours) / llama.cpp grammar (peer)", f("guided_tok_s"), f("peer_grammar_tok_s"), None),
    ("Guided / our unconstrained (bar: >= 0.9)", f("guided_tok_s") / f("unconstrained_tok_s"), None, 0.9),
    ("Peer grammar / peer unconstrained", None, f("peer_grammar_tok_s") / f("peer_unconstrained_tok_s"), None),
    ("Four-field JSON, mean request s", f("json_mean_request_s"), f("peer_json_mean_request_s"), None),
    ("Four-field JSON speed-up vs peer (bar: >= 2)", f("peer_json_mean_request_s") / f("json_mean_request_s"), None, 2.0),
    ("Valid outputs, %", f("json_valid_percent"), f("peer_json_valid_percent"), None),
    ("First request after prewarm / steady state (bar: <= 1.2)", f("first_after_prewarm_ratio"), None, 1.2),
    ("Cold process: restore + request / steady state (bar: <= 1.5)",
     f("cold_restore_plus_request_s") / f("steady_same_note_s"), None, 1.5),
    ("Cold process: prefix restored from disk (1 = yes)", f("cold_prefix_restored"), None, None),
    ("Resident memory with the model loaded, MB (bar: < 350)", f("rss_mb"), f("peer_rss_mb"), 350),
]
print(f"{'figure':64} {'notes':>9} {'peer':>9}")
for name, ours, peer, bar in rows:
    cell = lambda v: f"{v:9.3f}" if v is not None else f"{'':>9}"
    print(f"{name:64} {cell(ours)} {cell(peer)}")
