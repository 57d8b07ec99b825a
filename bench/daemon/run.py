#!/usr/bin/env python3
"""Daemon benchmark (issue 4): latency from `notes add` returning to the analysis being stored,
daemon CPU while idle, and analysis throughput beside the peer (llama-cpp-python's JSON-schema
path on the same model), all in one run; then (issue 12) the model's sleep: resident memory once
it sleeps, and the first note after a sleep beside a warm one.

    python3 bench/daemon/run.py NOTES_BINARY [--latency-notes 15] [--idle-seconds 60]
                                [--throughput-notes 200] [--peer-notes 40] [--sleep-rounds 3]
    python3 bench/daemon/run.py NOTES_BINARY --only-sleep [--sleep-rounds 3]
    python3 bench/daemon/run.py NOTES_BINARY --only-import 1000
"""
import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEPS = os.environ.get("NOTES_DEPS", "/opt/notes-deps")


def devset_texts():
    # The core part of the dev set: short and medium notes, like the notes people add one by one.
    with open(os.path.join(ROOT, "bench", "analysis", "devset", "core.jsonl"), encoding="utf-8") as handle:
        return [json.loads(line)["text"] for line in handle if line.strip()]


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def status_mb(pid, field):
    """A memory figure of /proc/PID/status in MB: VmRSS now, VmHWM the peak."""
    with open("/proc/%d/status" % pid) as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def run_measured(command, **kwargs):
    """Runs a command to its end; returns (seconds, peak resident MB of that process)."""
    started = time.time()
    process = subprocess.Popen(command, **kwargs)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit("%s failed with %d" % (command[0], process.returncode))
    return time.time() - started, usage.ru_maxrss / 1024


def wait_for(path, text, timeout=300):
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(path, encoding="utf-8", errors="replace") as handle:
            if text in handle.read():
                return True
        time.sleep(0.05)
    return False


def stored_after_add(run, text):
    """Milliseconds from `notes add` to the note's full analysis being stored."""
    started = time.time()
    note_id = run("add", "--", text).strip()
    while True:
        analysis = json.loads(run("show", note_id, "--json"))["analysis"]
        if analysis is not None and analysis.get("stage", "full") == "full":
            return (time.time() - started) * 1000
        time.sleep(0.02)


def sleep_section(notes, env, work, run, texts, rounds, keep_alive=5):
    """The daemon with --keep-alive KEEP_ALIVE s: after each sleep, the memory it holds, then a
    note added while it sleeps (it wakes, reloads, analyses) and one added right after (warm)."""
    log_path = os.path.join(work, "sleep.log")
    with open(log_path, "w") as log:
        daemon = subprocess.Popen([notes, "daemon", "--keep-alive", "%ds" % keep_alive], env=env, stderr=log, stdout=subprocess.DEVNULL)
    try:
        asleep, woken, warm, resident, awake_resident = 0, [], [], [], []
        for index in range(rounds):
            asleep += 1
            if not wait_until_count(log_path, "the model sleeps", asleep, timeout=600):
                sys.exit("the daemon did not sleep:\n" + open(log_path).read())
            # A build that sleeps as a fresh process says so once that process is up.
            wait_until_count(log_path, "started afresh", asleep, timeout=10)
            time.sleep(1)
            resident.append(status_mb(daemon.pid, "VmRSS"))
            woken.append(stored_after_add(run, texts[(2 * index) % len(texts)]))
            awake_resident.append(status_mb(daemon.pid, "VmRSS"))
            warm.append(stored_after_add(run, texts[(2 * index + 1) % len(texts)]))
        ratio = statistics.median(woken) / statistics.median(warm)
        print("asleep: resident %.0f MB, median of %d sleeps (%s); awake %.0f MB (target <= 60 MB)"
              % (statistics.median(resident), rounds, ", ".join("%.0f" % x for x in resident), statistics.median(awake_resident)))
        print("add -> stored, first note after a sleep: median %.0f ms (%s); a warm note: median %.0f ms (%s); ratio %.2fx (target <= 1.5x)"
              % (statistics.median(woken), ", ".join("%.0f" % x for x in woken), statistics.median(warm),
                 ", ".join("%.0f" % x for x in warm), ratio))
    finally:
        daemon.terminate()
        daemon.wait(timeout=60)


def wait_until_count(path, text, count, timeout=300):
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(path, encoding="utf-8", errors="replace") as handle:
            if handle.read().count(text) >= count:
                return True
        time.sleep(0.05)
    return False


def pending_quick(database):
    """Notes with no analysis of their current text (quick or full), and notes with that or no
    current vectors: (without an analysis, without either)."""
    connection = sqlite3.connect(database)
    try:
        return connection.execute("""
            SELECT count(*) FILTER (WHERE unanalysed),
                   count(*) FILTER (WHERE unanalysed OR NOT EXISTS (
                       SELECT 1 FROM note_vectors v WHERE v.note_seq = seq AND v.content_hash = hash))
            FROM (SELECT n.seq AS seq, n.content_hash AS hash, (a.note_seq IS NULL OR a.content_hash != n.content_hash) AS unanalysed
                  FROM notes n LEFT JOIN analyses a ON a.note_seq = n.seq WHERE n.deleted IS NULL)
            """).fetchone()
    except sqlite3.OperationalError:  # not created yet, or locked for a moment
        return None
    finally:
        connection.close()


def import_section(notes, env, work, run, count):
    """`notes import` of COUNT Markdown notes with the daemon running: the time until every note
    has its quick analysis (category, deadlines, vectors), and how the CLI answers meanwhile."""
    vault = os.path.join(work, "vault")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "storage", "make_vault.py"), vault, str(count)], check=True,
                   stdout=subprocess.DEVNULL)
    log_path = os.path.join(work, "import-daemon.log")
    run("add", "warm-up note")
    daemon = subprocess.Popen([notes, "daemon"], env=env, stderr=open(log_path, "w"), stdout=subprocess.DEVNULL)
    try:
        if not wait_for(log_path, "model ready"):
            sys.exit("the daemon did not get ready:\n" + open(log_path).read())
        wait_for(log_path, "analysed")
        database = os.path.join(env["NOTES_HOME"], "notes.sqlite")
        started = time.time()
        run("import", vault)
        imported = time.time() - started
        shown = json.loads(run("list", "-n", "1", "--json"))[0]["id"]
        latencies = []
        analysed = None
        while True:
            left = pending_quick(database)
            if left is not None and left[0] == 0 and analysed is None:
                analysed = time.time() - started
            if left is not None and left[1] == 0:
                break
            if time.time() - started > 900:
                sys.exit("the quick stage did not finish in 15 minutes (%s left)" % left)
            for command in (["list", "-n", "5"], ["search", "--exact", "invoice"], ["show", "--json", shown]):
                begin = time.time()
                run(*command)
                latencies.append((time.time() - begin) * 1000)
            time.sleep(0.5)
        done = time.time() - started
        print("import of %d notes: %.1f s to import, %.1f s until every note had its quick analysis, %.1f s until it had its vectors too (target <= 60 s)"
              % (count, imported, analysed, done))
        print("the CLI meanwhile (list, search --exact, show, %d calls): median %.0f ms, max %.0f ms"
              % (len(latencies), statistics.median(latencies), max(latencies)))
    finally:
        daemon.terminate()
        daemon.wait(timeout=60)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("notes")
    parser.add_argument("--latency-notes", type=int, default=15)
    parser.add_argument("--idle-seconds", type=int, default=60)
    parser.add_argument("--throughput-notes", type=int, default=200)
    parser.add_argument("--peer-notes", type=int, default=40)
    parser.add_argument("--sleep-rounds", type=int, default=3)
    parser.add_argument("--only-sleep", action="store_true")
    parser.add_argument("--only-import", type=int, metavar="COUNT", help="only the import of COUNT notes with the daemon running")
    args = parser.parse_args()
    texts = devset_texts()
    work = tempfile.mkdtemp(prefix="notes-daemon-bench-")
    env = dict(os.environ, NOTES_HOME=os.path.join(work, "home"))
    notes = args.notes

    def run(*command, stdin=None):
        return subprocess.run([notes, *command], env=env, input=stdin, capture_output=True, text=True, check=True).stdout

    try:
        if args.only_import:
            return import_section(notes, env, work, run, args.only_import)
        if args.only_sleep:
            run("add", "warm-up note")
            return sleep_section(notes, env, work, run, texts, args.sleep_rounds)
        log_path = os.path.join(work, "daemon.log")
        log = open(log_path, "w")
        run("add", "warm-up note")
        daemon = subprocess.Popen([notes, "daemon"], env=env, stderr=log, stdout=subprocess.DEVNULL)
        if not wait_for(log_path, "model ready"):
            sys.exit("the daemon did not get ready:\n" + open(log_path).read())
        wait_for(log_path, "analysed")
        latencies = []
        for index in range(args.latency_notes):
            started = time.time()
            note_id = run("add", "--", texts[index % len(texts)]).strip()
            while True:
                shown = json.loads(run("show", note_id, "--json"))
                if shown["analysis"] is not None:
                    break
                time.sleep(0.01)
            latencies.append((time.time() - started) * 1000)
        print("add -> analysis stored: median %.0f ms, min %.0f, max %.0f over %d notes (target median < 1000 ms)"
              % (statistics.median(latencies), min(latencies), max(latencies), len(latencies)))

        time.sleep(2)
        before = cpu_seconds(daemon.pid)
        time.sleep(args.idle_seconds)
        used = cpu_seconds(daemon.pid) - before
        print("daemon CPU while idle: %.3f s over %d s = %.2f%% (target < 1%%)" % (used, args.idle_seconds, 100 * used / args.idle_seconds))
        print("daemon peak resident memory: %.0f MB" % status_mb(daemon.pid, "VmHWM"))
        daemon.terminate()
        daemon.wait(timeout=30)

        # Throughput: notes analysed per minute by `notes daemon --once`, model already cached.
        for index in range(args.throughput_notes):
            run("add", "--", texts[index % len(texts)] + ("\n(copy %d)" % index if index >= len(texts) else ""))
        elapsed, ours_rss = run_measured([notes, "daemon", "--once"], env=env, stderr=subprocess.DEVNULL)
        ours = args.throughput_notes / elapsed * 60
        print("throughput: %d notes in %.1f s = %.0f notes/min (daemon --once, prewarm included), peak %.0f MB"
              % (args.throughput_notes, elapsed, ours, ours_rss))

        python = os.path.join(DEPS, "venv", "bin", "python")
        if args.peer_notes > 0 and os.path.exists(python):
            out = os.path.join(work, "peer.jsonl")
            peer_elapsed, peer_rss = run_measured([python, os.path.join(ROOT, "bench", "analysis", "peer.py"), "--limit", str(args.peer_notes),
                                                   "--out", out], stderr=subprocess.DEVNULL)
            peer = args.peer_notes / peer_elapsed * 60
            print("peer (llama-cpp-python JSON schema): %d notes in %.1f s = %.0f notes/min (model load included), peak %.0f MB; "
                  "ours/peer %.2fx" % (args.peer_notes, peer_elapsed, peer, peer_rss, ours / peer))
        if args.sleep_rounds > 0:
            sleep_section(notes, env, work, run, texts, args.sleep_rounds)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
