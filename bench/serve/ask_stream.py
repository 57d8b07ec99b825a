#!/usr/bin/env python3
"""The ask page as it streams (issue 35): when its first word arrives, when the whole answer
has, and the notes page's time while the answer is being written beside its time idle.

    ask_stream.py PORT TOKEN QUESTION
"""
import http.client
import sys
import threading
import time
import urllib.parse

port, token, question = int(sys.argv[1]), sys.argv[2], sys.argv[3]
cookie = {"Cookie": f"notes_token_{port}={token}"}


def page_time(path="/"):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    start = time.perf_counter()
    connection.request("GET", path, headers=cookie)
    connection.getresponse().read()
    return time.perf_counter() - start


def median(values):
    return sorted(values)[len(values) // 2]


idle = median([page_time() for _ in range(7)])
connection = http.client.HTTPConnection("127.0.0.1", port)
start = time.perf_counter()
connection.request("GET", "/ask?q=" + urllib.parse.quote(question), headers=cookie)
response = connection.getresponse()
during, finished = [], threading.Event()


def load_pages():
    # One notes page after another for as long as the answer is being written.
    while not finished.is_set():
        during.append(page_time())


threading.Thread(target=load_pages, daemon=True).start()
first_word, pieces, page = None, 0, b""
while piece := response.read1(65536):
    pieces += 1
    page += piece
    if first_word is None and b'class="draft"' in page:
        first_word = time.perf_counter() - start
whole = time.perf_counter() - start
finished.set()
answer = page.decode().split('<div class="final"><p>')[-1].split("</p>")[0]
print(f"ask page: first word {first_word or 0:.2f} s, whole answer {whole:.2f} s, {pieces} pieces; answer: {answer!r}")
print(f"notes page while answering: median {median(during) * 1000:.1f} ms over {len(during)} loads (max {max(during) * 1000:.1f} ms); idle: {idle * 1000:.1f} ms")
