#!/usr/bin/env python3
"""`notes ask` against llama-cpp-python's chat-completion tool calling, question by question,
interleaved in one run: the same GGUF (the reader model), the same instructions, the same three
tools over the same notebook, the same question, greedy, 2 threads, 4,096 tokens of context.

    run.py NOTES_BINARY ASK_BENCH_BINARY QUESTIONS_DIR [--part tuned|held-out|all] [--limit N]
           [--kinds fact,date,...] [--peer-every K] [--out RESULTS.jsonl]
    run.py --report RESULTS.jsonl      (the tables again, from the rows a run wrote)

The questions are make_questions.py's (201: fact, date, sum, count, lang in Greek, Finnish and
Polish, followup, days, none; see its docstring). They are asked round-robin over the kinds (in
the order of --kinds, all by default), so a run cut short still has each kind. The tables give, by
part (tuned, held out, all) and side, the answerable questions right, a column per kind with
answers (for lang and followup, their answerable ones), the unanswerable ones declined (none, and
lang ones without answers), invented citations and errors; then right and declined by language.

Ours runs in `ask-bench` (the Notebook layer's NotebookQuestions, as `notes ask` runs it, one
conversation a question). A followup's turns are sent in order, each after the first with
"continue": true, which ask-bench asks in the same conversation; the last turn is scored (the
earlier turns' scores are in the row, "ours_turn_scores"), and each turn's transcript is that
turn's only. The peer is asked followups too, in one conversation: each turn's messages go on
with the turn before's (its tool outputs and its answer), with the same handles, as ours keeps
them; a conversation that outgrows the 4,096 tokens is an error of the peer's.

The peer is llama-cpp-python 0.3's "chatml-function-calling" handler: its first step is forced to
call search_notes (tool_choice naming it, as our first step must call a tool), then tool_choice
"auto" up to 4 calls. Two things of that handler's are worked around,
and said here: its template has no place for role "tool" messages (they vanish from the prompt),
so each tool's output goes back as a user message "Output of TOOL:"; and when "auto" chooses a
message, the message is generated under the function-name grammar and comes back empty, so the
answer is then asked for with tool_choice "none" (streamed). The peer's tools call `notes search
--json` (the same hybrid search) and read notes and tasks from the same SQLite file, and write
their output exactly as ours do (handles N1, N2...). Its sources are the handles on the answer's
"Sources:" line, which its instructions ask for.
"""
import argparse
import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import zip_longest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEPS = os.environ.get("NOTES_DEPS", "/opt/notes-deps")


def swift_string(name):
    source = open(os.path.join(ROOT, "Sources", "Notebook", "Ask", "Ask.swift"), encoding="utf-8").read()
    block = re.search(r"static let %s = \"\"\"\n(.*?)\n\s*\"\"\"" % name, source, re.S).group(1)
    lines = block.split("\n")
    indent = min(len(l) - len(l.lstrip()) for l in lines if l.strip())
    return "\n".join(l[indent:] for l in lines)


def peer_instructions():
    # Ours ends by saying the JSON it replies with; the peer answers in text with a sources line.
    text = swift_string("instructions")
    lines = [l for l in text.split("\n") if not l.startswith("Reply with JSON only")]
    lines.append('End the answer with a line "Sources: N1, N2" listing the handles of the notes that hold the answer, or "Sources: none".')
    return "\n".join(lines)


TOOLS = [
    {"type": "function", "function": {"name": "search_notes", "description": "Searches the user's notes by words and by meaning; returns the best notes, each with its handle (N1, N2...), title, date and text.",
                                      "parameters": {"type": "object", "properties": {"query": {"type": "string", "description": "a few words to look for", "minLength": 1, "maxLength": 80}}, "required": ["query"]}}},
    {"type": "function", "function": {"name": "read_note", "description": "Returns the whole text of one note, by the handle a search or the task list gave it.",
                                      "parameters": {"type": "object", "properties": {"id": {"type": "string", "description": "the note's handle, such as N1", "pattern": "^N[1-9][0-9]{0,2}$"}}, "required": ["id"]}}},
    {"type": "function", "function": {"name": "list_tasks", "description": "Lists the open tasks found in the notes, soonest due first, each with its due day and its note's handle.",
                                      "parameters": {"type": "object", "properties": {"about": {"type": "string", "description": "words the task or its note must contain, or \"\" for every open task", "maxLength": 40}}, "required": ["about"]}}},
]


class PeerTools:
    """The same three tools as Sources/Notebook/AskTools.swift, writing the same text."""

    def __init__(self, notes, home):
        self.notes, self.home = notes, home
        self.db = sqlite3.connect(f"file:{home}/notes.sqlite?mode=ro", uri=True)
        self.handles, self.order = {}, []
        self.shown, self.searches = [], []

    def begin_turn(self):
        """A follow-up: the handles stay, as ours keeps them; what is citable and searched is the turn's."""
        self.shown, self.searches = [], []

    def show(self, note_id, title):
        if note_id not in self.handles:
            self.order.append(note_id)
            self.handles[note_id] = f"N{len(self.order)}"
        handle = self.handles[note_id]
        if handle not in self.shown:
            self.shown.append(handle)
        return handle

    def note(self, note_id):
        row = self.db.execute("SELECT title, body, created FROM notes WHERE id = ? AND deleted IS NULL", (note_id,)).fetchone()
        return row and {"id": note_id, "title": row[0], "body": row[1], "day": time.strftime("%Y-%m-%d", time.gmtime(row[2] / 1000))}

    @staticmethod
    def quoted(text):
        return '"' + text.replace('"', "'") + '"'

    def heading(self, handle, note):
        return f"{handle} {self.quoted(note['title'])} (written {note['day']})"

    def call(self, name, arguments):
        if name == "search_notes":
            query = arguments.get("query", "")
            if query in self.searches:
                return f'You searched for "{query}" already; use other words, or answer.'
            self.searches.append(query)
            env = dict(os.environ, NOTES_HOME=self.home)
            hits = json.loads(subprocess.run([self.notes, "search", "-n", "5", "--json", "--", query], capture_output=True, text=True, env=env).stdout or "[]")
            notes = [n for n in (self.note(h["id"]) for h in hits) if n]
            if not notes:
                return f'No note matches "{query}".'
            lines = []
            for n in notes:
                line = " ".join(n["body"].split("\n"))
                line = line[:320] + "…" if len(line) > 320 else line
                lines.append(self.heading(self.show(n["id"], n["title"]), n) + ": " + line)
            return "\n".join(lines)
        if name == "read_note":
            handle = arguments.get("id", "")
            ids = [i for i, h in self.handles.items() if h == handle]
            note = ids and self.note(ids[0])
            if not note:
                return f"No note {handle} has been shown: search first."
            body = note["body"].encode()[:3000].decode(errors="ignore")
            return self.heading(self.show(note["id"], note["title"]), note) + ":\n" + body
        if name == "list_tasks":
            about = arguments.get("about", "")
            words = {w for w in re.split(r"\W+", about.lower()) if len(w) > 2}
            env = dict(os.environ, NOTES_HOME=self.home)
            tasks = json.loads(subprocess.run([self.notes, "tasks", "--json"], capture_output=True, text=True, env=env).stdout or "[]")
            kept = [t for t in tasks if not words or words & {w for w in re.split(r"\W+", (t["text"] + " " + t["note_title"]).lower()) if len(w) > 2}][:25]
            if not kept:
                return ("No open tasks." if not words else f'No open task about "{about}".') + " search_notes finds notes by their text."
            return "\n".join(f"{self.show(t['note'], t['note_title'])} {self.quoted(t['note_title'])}: {t['text']} (due {t['due'] or 'no day given'})" for t in kept)
        return f"There is no tool {name}."


def ask_peer(llm, notes, home, question, now_line, conversation=None):
    """One question; `conversation` is what the turn before returned as "conversation" (its
    messages with its answer, and its tools), for a follow-up."""
    prompt = {"role": "user", "content": now_line + "\nQuestion: " + question}
    if conversation:
        tools = conversation["tools"]
        tools.begin_turn()
        messages = conversation["messages"] + [prompt]
    else:
        tools = PeerTools(notes, home)
        messages = [{"role": "system", "content": peer_instructions()}, prompt]
    start = time.perf_counter()
    first_word = None
    calls = 0
    transcript = []
    answer = ""
    while True:
        if calls == 0:
            choice = {"type": "function", "function": {"name": "search_notes"}}
        elif calls < 4:
            choice = "auto"
        else:
            choice = "none"
        if choice == "none":
            text = ""
            for chunk in llm.create_chat_completion(messages=messages, tools=TOOLS, tool_choice="none", temperature=0, max_tokens=400, stream=True):
                piece = chunk["choices"][0].get("delta", {}).get("content") or ""
                if first_word is None and re.search(r"\w", piece):
                    first_word = time.perf_counter() - start
                text += piece
            answer = text
            transcript.append({"response": text})
            break
        result = llm.create_chat_completion(messages=messages, tools=TOOLS, tool_choice=choice, temperature=0, max_tokens=400)
        message = result["choices"][0]["message"]
        tool_calls = message.get("tool_calls") or []
        if not tool_calls:
            calls = 4  # "auto" chose a message, which comes back empty: ask for it without tools
            continue
        messages.append({"role": "assistant", "content": None, "tool_calls": tool_calls})
        for call in tool_calls:
            name = call["function"]["name"]
            try:
                arguments = json.loads(call["function"]["arguments"])
            except ValueError:
                arguments = {}
            output = tools.call(name, arguments)
            transcript += [{"call": name + " " + call["function"]["arguments"]}, {"output": output}]
            messages.append({"role": "user", "content": f"Output of {name}:\n{output}"})
            calls += 1
    total = time.perf_counter() - start
    messages.append({"role": "assistant", "content": answer})
    match = re.search(r"Sources?:\s*(.*)$", answer, re.I | re.S)
    cited = re.findall(r"N[0-9]+", match.group(1)) if match else []
    text = answer[: match.start()].strip() if match else answer.strip()
    by_handle = {h: i for i, h in tools.handles.items()}
    sources = []
    for handle in dict.fromkeys(cited):
        note = by_handle.get(handle) and tools.note(by_handle[handle])
        sources.append({"handle": handle, "shown": handle in tools.shown, "title": note["title"] if note else None})
    return {"answer": text, "sources": sources, "searches": tools.searches, "transcript": transcript,
            "first_word_ms": 1000 * (first_word or total), "total_ms": 1000 * total,
            "conversation": {"messages": messages, "tools": tools}}


def ask_peer_all(llm, notes, home, question, now_line):
    """Every turn of the question in one conversation (a single turn but for followups): the
    result of the last, with the earlier ones' results under "turns"."""
    results, conversation = [], None
    for turn in turns(question):
        result = ask_peer(llm, notes, home, turn["question"], now_line, conversation)
        conversation = result.pop("conversation")
        results.append(result)
    return dict(results[-1], turns=results[:-1]) if len(results) > 1 else results[-1]


def turns(question):
    """The questions asked in order: a followup's turns, or the question alone."""
    return question.get("turns") or [question]


def ask_ours(ours, question):
    """Every turn to ask-bench, each after the first with "continue" (the same conversation)."""
    results = []
    for number, turn in enumerate(turns(question)):
        request = {"question": turn["question"]}
        if number:
            request["continue"] = True
        ours.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
        ours.stdin.flush()
        results.append(json.loads(ours.stdout.readline()))
    return dict(results[-1], turns=results[:-1]) if len(results) > 1 else results[-1]


def normal(text):
    return re.sub(r"\s+", "", text.lower())


def score(question, result, side):
    """right: answerable, contains an accepted answer and cites a note that holds it;
    declined: unanswerable and nothing cited; invented: a cited note no tool showed."""
    if "error" in result:
        return {"right": False, "declined": False, "invented": 0, "error": True}
    if side == "ours":
        shown = "\n".join(e.get("output", "") for e in result["transcript"])
        titles = [s["title"] for s in result["sources"]]
        invented = sum('"' + t.replace('"', "'") + '"' not in shown for t in titles)
    else:
        titles = [s["title"] for s in result["sources"] if s["title"]]
        invented = sum(not s["shown"] for s in result["sources"])
    answer = normal(result["answer"])
    cites_holder = bool(set(titles) & set(question["notes"]))
    right = bool(question["answers"]) and any(normal(a) in answer for a in question["answers"]) and cites_holder
    declined = not question["answers"] and not result["sources"]
    return {"right": right, "declined": declined, "invented": invented, "error": False}


KINDS = ("fact", "date", "sum", "count", "lang", "followup", "days", "none")
# The kinds with answers, a column each (lang and followup: their answerable questions).
COLUMNS = ("fact", "date", "sum", "count", "lang", "followup", "days")
LANGUAGES = ("el", "fi", "pl")


def summary(rows, side, subset):
    rows = [r for r in rows if subset(r["q"]) and side + "_score" in r]
    answerable = [r for r in rows if r["q"]["answers"]]
    unanswerable = [r for r in rows if not r["q"]["answers"]]
    s = [r[side + "_score"] for r in rows]
    line = {
        "answerable right": f"{sum(r[side + '_score']['right'] for r in answerable)}/{len(answerable)}",
        "unanswerable declined": f"{sum(r[side + '_score']['declined'] for r in unanswerable)}/{len(unanswerable)}",
        "invented citations": sum(x["invented"] for x in s),
        "errors": sum(x["error"] for x in s),
    }
    for kind in COLUMNS:
        k = [r for r in answerable if r["q"]["kind"] == kind]
        line[kind] = f"{sum(r[side + '_score']['right'] for r in k)}/{len(k)}"
    for language in LANGUAGES:
        # Every question in the language (lang and followup): answerable right, unanswerable declined.
        k = [r for r in rows if r["q"].get("language") == language]
        a = [r for r in k if r["q"]["answers"]]
        u = [r for r in k if not r["q"]["answers"]]
        line[language] = (f"{sum(r[side + '_score']['right'] for r in a)}/{len(a)}",
                          f"{sum(r[side + '_score']['declined'] for r in u)}/{len(u)}")
    return line


def percent(fraction):
    a, b = map(int, fraction.split("/"))
    return f"{100 * a / b:.0f}%" if b else "-"


PARTS = (("tuned", lambda q: not q["held_out"]), ("held out", lambda q: q["held_out"]), ("all", lambda q: True))


def report(rows):
    print("| part | side | answerable right | " + " | ".join(COLUMNS) + " | unanswerable declined | invented citations | errors |")
    print("| --- " * (len(COLUMNS) + 6) + "|")
    for part, subset in PARTS:
        for side in ("ours", "peer"):
            s = summary(rows, side, subset)
            print(f"| {part} | {side} | {s['answerable right']} ({percent(s['answerable right'])}) | " + " | ".join(s[k] for k in COLUMNS) + " | "
                  f"{s['unanswerable declined']} ({percent(s['unanswerable declined'])}) | {s['invented citations']} | {s['errors']} |")
    print()
    # By language: the lang questions and the followup in Polish; "right" over the answerable ones,
    # "declined" over the unanswerable ones.
    print("| part | side | " + " | ".join(f"{l} right | {l} declined" for l in LANGUAGES) + " |")
    print("| --- " * (2 + 2 * len(LANGUAGES)) + "|")
    for part, subset in PARTS:
        for side in ("ours", "peer"):
            s = summary(rows, side, subset)
            print(f"| {part} | {side} | " + " | ".join(f"{s[l][0]} | {s[l][1]}" for l in LANGUAGES) + " |")
    print()
    for key, label in (("first_word_ms", "to the first answer word"), ("total_ms", "to the whole answer")):
        # The same questions on both sides (the peer may have been asked only some).
        both = [r for r in rows if key in r["ours"] and key in r.get("peer", {})]
        a = [r["ours"][key] for r in both]
        b = [r["peer"][key] for r in both]
        if a and b:
            ma, mb = statistics.median(a), statistics.median(b)
            print(f"- median time {label}, {len(a)} questions: ours {ma / 1000:.1f} s, peer {mb / 1000:.1f} s ({ma / mb:.2f}x the peer's time)")


def check_times(rows):
    # Ours only: the grounding check after an answer whose sources lack some of the question's words.
    ours = [r["ours"] for r in rows if "total_ms" in r["ours"]]
    checked = [o["check_ms"] for o in ours if "check_ms" in o]
    if ours and checked:  # rows of a build with the check
        line = f"- ours' grounding check: asked on {len(checked)} of {len(ours)} questions"
        if checked:
            line += f", median {statistics.median(checked) / 1000:.1f} s when asked, {sum(checked) / len(ours) / 1000:.1f} s a question over all"
        print(line)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--report":
        rows = [json.loads(line) for line in open(sys.argv[2], encoding="utf-8") if line.strip()]
        report(rows)
        check_times(rows)
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("notes")
    ap.add_argument("ask_bench")
    ap.add_argument("dir")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--out", default=None)
    ap.add_argument("--model", default=os.environ.get("NOTES_READER_MODEL") or DEPS + "/reader-model.gguf")
    ap.add_argument("--now", default="2026-12-01T09:00:00Z")
    ap.add_argument("--peer-every", type=int, default=1,
                    help="ask the peer every K-th question only (its figures are then over those), 0 never: ours runs in minutes, the peer in an hour or more")
    ap.add_argument("--part", choices=("tuned", "held-out", "all"), default="all",
                    help="ask only the tuned questions (while tuning: never look at the held-out ones), only the held-out ones, or all")
    ap.add_argument("--kinds", default=",".join(KINDS),
                    help="ask only these kinds, comma-separated, in this order round-robin (default: %(default)s)")
    args = ap.parse_args()
    data = json.load(open(os.path.join(args.dir, "questions.json")))
    questions = [q for q in data["questions"] if args.part == "all" or q["held_out"] == (args.part == "held-out")]
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        ap.error(f"no kind {', '.join(sorted(unknown))}; the kinds are {', '.join(KINDS)}")
    by_kind = {kind: [q for q in questions if q["kind"] == kind] for kind in kinds}
    questions = [q for group in zip_longest(*by_kind.values()) for q in group if q]
    if args.limit:
        questions = questions[: args.limit]
    home = tempfile.mkdtemp(prefix="notes-ask-bench-")
    env = dict(os.environ, NOTES_HOME=home, NOTES_READER_MODEL=args.model, ASK_NOW=args.now)
    subprocess.run([args.notes, "import", os.path.join(args.dir, "notes")], env=env, check=True, capture_output=True)
    subprocess.run([args.notes, "analyze", "--quick"], env=dict(env, NOTES_READER_MODEL="none"), check=True, capture_output=True)
    print(f"notebook: {data['notes']} notes imported, quick analysis (tasks, vectors) done", file=sys.stderr)
    ours = subprocess.Popen([args.ask_bench], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    llm = None
    if args.peer_every > 0:
        from llama_cpp import Llama
        llm = Llama(args.model, n_ctx=4096, n_threads=2, verbose=False, chat_format="chatml-function-calling")
    day = args.now[:10]
    weekday = time.strftime("%A", time.strptime(day, "%Y-%m-%d"))
    rows = []
    if args.out:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    out = open(args.out, "w") if args.out else None
    for number, question in enumerate(questions, 1):
        mine = ask_ours(ours, question)
        row = {"q": question, "ours": mine, "ours_score": score(question, mine, "ours")}
        if "turns" in question:
            # The earlier turns' scores too (not in the tables: the last turn is the question's).
            row["ours_turn_scores"] = [score(t, r, "ours") for t, r in zip(question["turns"], mine["turns"])]
        peer = {}
        if llm and (number - 1) % args.peer_every == 0:
            try:
                peer = ask_peer_all(llm, args.notes, home, question, f"Today is {day} ({weekday}).")
            except Exception as error:  # the peer's failure is a result, not the end of the run
                peer = {"error": repr(error), "answer": "", "sources": [], "transcript": []}
            row.update(peer=peer, peer_score=score(question, peer, "peer"))
        rows.append(row)
        if out:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            out.flush()
        asked = " / ".join(t["question"] for t in turns(question))
        print(f"[{number}/{len(questions)}] {question['kind']:8} {asked[:50]:50} ours: {mine.get('answer', mine.get('error', ''))[:40]!r} "
              f"{'ok' if row['ours_score']['right'] or row['ours_score']['declined'] else '--'} {mine.get('total_ms', 0) / 1000:.1f}s | peer: {peer.get('answer', '')[:40]!r} "
              f"{('ok' if row['peer_score']['right'] or row['peer_score']['declined'] else '--') if 'peer_score' in row else 'not asked'} {peer.get('total_ms', 0) / 1000:.1f}s",
              file=sys.stderr, flush=True)
    ours.stdin.close()
    ours.wait()
    print()
    report(rows)
    check_times(rows)


if __name__ == "__main__":
    main()
