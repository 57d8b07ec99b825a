#!/usr/bin/env python3
# A note just added, found by meaning at once (issue 30, item 5): 25 times `notes add`, then the
# same `search --meaning` twice, in the notebook NOTES_HOME names; medians of each.
#
#   python3 bench/search/add_then_search.py NOTES_BINARY
import os, subprocess, sys, time, statistics
notes = sys.argv[1]
env = dict(os.environ)
def run(*args):
    start = time.perf_counter(); subprocess.run([notes, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True); return (time.perf_counter() - start) * 1000
adds, after, plain = [], [], []
for i in range(25):
    adds.append(run("add", f"Call the plumber about the leaking kitchen tap, visit number {i}"))
    after.append(run("search", "--meaning", "water dripping in the kitchen"))
    plain.append(run("search", "--meaning", "water dripping in the kitchen"))
print(f"add {statistics.median(adds):.1f} ms; search --meaning right after it {statistics.median(after):.1f} ms; the same search again {statistics.median(plain):.1f} ms (medians of 25)")
