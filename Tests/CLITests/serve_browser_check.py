#!/usr/bin/env python3
"""`notes serve` driven by a real browser: Debian's chromium, headless, through Playwright.

    serve_browser_check.py NOTES_BINARY NOTES_HOME SCREENSHOT_DIR

The notebook at NOTES_HOME holds the notes ServeBrowserTests adds (analysed, quick stage).
Prints one "ok: ..." line per case and exits non-zero at the first failure.
"""
import atexit
import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright

notes, home, shots = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(shots, exist_ok=True)
env = dict(os.environ, NOTES_HOME=home)


def cli(*arguments):
    return subprocess.run([notes, *arguments], env=env, capture_output=True, text=True, check=True).stdout


def note_id(title):
    return next(note["id"] for note in json.loads(cli("list", "--json")) if note["title"] == title)


def show(title):
    return cli("show", note_id(title))


def ok(what):
    print("ok:", what, flush=True)


# Its standard output is not ours: a server left running by a failure must not hold the test's pipe.
server = subprocess.Popen([notes, "serve", "--port", "0"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
atexit.register(lambda: server.poll() is None and server.kill())
line = server.stderr.readline()
match = re.search(r"(http://127\.0\.0\.1:(\d+)/)\?token=([0-9a-f]+)", line)
assert match, f"no address in {line!r}"
base, port, token = match.group(1), match.group(2), match.group(3)
address = f"{base}?token={token}"
ok("notes serve printed its address with a token")


def status(url, headers=None, data=None):
    request = urllib.request.Request(url, headers=headers or {}, data=data)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


# Refusals, from a client that is not the browser that opened the address.
code, body = status(base)
assert code == 403 and "Secret" not in body, (code, body)
code, body = status(f"{base}?token=wrong")
assert code == 403, code
code, body = status(f"{base}?token={token}", headers={"Host": f"evil.example:{port}"})
assert code == 421 and "Secret" not in body, code
code, _ = status(f"{base}add", data=b"text=planted", headers={"Cookie": f"notes_token_{port}={token}", "Origin": "http://evil.example"})
assert code == 403, code
code, _ = status(f"{base}add", data=b"text=planted", headers={"Cookie": f"notes_token_{port}={token}"})
assert code == 403, code
# A body larger than a note can be (64 MiB), from the browser's own cookie: 413, nothing added.
code, _ = status(f"{base}add", data=b"text=" + b"x" * (65 * 1024 * 1024), headers={"Cookie": f"notes_token_{port}={token}"})
assert code == 413, code
assert "planted" not in cli("list")
ok("no token, a wrong token, another Host, another origin, no CSRF value, a huge body: refused, nothing added")

try:
    dialogs = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), headless=True,
                                             args=["--no-sandbox"])
        page = browser.new_context().new_page()
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

        page.goto(address)
        assert "token=" not in page.url, page.url
        assert page.locator("ul.notes > li").count() == 4, page.content()
        assert page.locator("text=Errands").count() >= 1
        page.screenshot(path=f"{shots}/list.png", full_page=True)
        ok("the list shows every note, and the token left the address")

        page.click('nav >> text="Search"')
        page.fill("input[name=q]", "piano")
        page.wait_for_selector("#results a:has-text('Piano lesson')")
        assert page.locator("#results a:has-text('Errands')").count() == 0
        page.screenshot(path=f"{shots}/search.png", full_page=True)
        ok("search as you type")

        page.goto(base)
        page.click("a:has-text('Odd note')")
        page.wait_for_load_state()
        assert "<script>alert" in page.inner_text("article.note"), page.inner_text("article.note")
        assert page.locator("article.note script").count() == 0
        page.screenshot(path=f"{shots}/note-with-script.png", full_page=True)
        ok("a note holding <script> shows it as text, runs nothing")

        page.goto(base)
        page.click("a:has-text('Errands')")
        page.wait_for_load_state()
        assert page.locator("article.note h1, article.note li").count() >= 2
        page.locator("ul.tasks li:has-text('buy milk') button").click()
        page.wait_for_selector("ul.tasks li.done:has-text('buy milk')")
        assert "- [x] buy milk" in show("Errands"), show("Errands")
        assert page.locator("a:has-text('Call the dentist')").count() >= 1, "the link is followed"
        assert page.locator("svg.graph a").count() >= 1, "the neighbourhood picture links to the linked note"
        page.screenshot(path=f"{shots}/note.png", full_page=True)
        ok("ticking a task ticks its box in the note's text")

        page.click("a:has-text('edit')")
        page.fill("textarea[name=text]", "Errands #home\n- [x] buy milk\n- [ ] post the letter\n- [ ] water the plants")
        page.click("button:has-text('Save')")
        page.wait_for_selector("article.note:has-text('water the plants')")
        assert "water the plants" in show("Errands")
        ok("an edit saved from the page is the note's text")

        page.click("a:has-text('edit')")
        page.fill("textarea[name=text]", "Errands\nmy version from the page")
        cli("edit", note_id("Errands"), "--append", "added from the shell meanwhile")
        page.click("button:has-text('Save')")
        page.wait_for_selector(".conflict")
        assert "added from the shell meanwhile" in page.inner_text("pre.theirs")
        assert "my version from the page" in page.input_value("textarea[name=text]")
        assert "added from the shell meanwhile" in show("Errands")
        page.screenshot(path=f"{shots}/conflict.png", full_page=True)
        ok("an edit over a change made elsewhere saves nothing and shows both")

        page.click("nav >> text=New note")
        page.fill("textarea[name=text]", "Αγορά ψωμιού αύριο\n- [ ] ψωμί")
        page.click("button:has-text('Save')")
        page.wait_for_selector("h1:has-text('Αγορά ψωμιού αύριο')")
        assert "Αγορά ψωμιού αύριο" in cli("list")
        ok("a note added from the page, in Greek")

        # Ask, on the small reading model the server was started with: the page arrives as the
        # answer is written (what the model looked up, its words), then the answer and its
        # sources, each a note of this notebook. An observer records what the page held each
        # time it grew.
        page.add_init_script("""
            window.__grew = [];
            new MutationObserver(() => {
              const answer = document.querySelector("section.answer");
              if (answer) window.__grew.push({ final: !!answer.querySelector(".final"), text: answer.innerText });
            }).observe(document, { childList: true, subtree: true, characterData: true });
        """)
        page.click('nav >> text="Ask"')
        page.fill("input[name=q]", "What day is the piano lesson moved to?")
        page.click("button:has-text('Ask')")
        page.wait_for_selector("section.answer", timeout=600_000)
        # While the answer is being written, the other pages are served.
        other = page.context.new_page()
        listed = other.goto(base + "/tasks")
        assert listed.status == 200
        answered_meanwhile = page.locator("section.answer .final").count() > 0
        other.close()
        page.wait_for_selector("section.answer .final", timeout=600_000)
        grew = page.evaluate("window.__grew")
        before = [step for step in grew if not step["final"]]
        assert before, "the answer's section was on the page before the answer was complete"
        answer = page.inner_text("section.answer .final p")
        assert answer.strip(), "an answer"
        assert not page.locator("section.answer .draft").is_visible(), "the draft gives way to the answer"
        sources = page.locator("section.answer .final li a")
        for index in range(sources.count()):
            assert sources.nth(index).get_attribute("href").startswith("/note/")
        print("answer:", answer, "| sources:", [sources.nth(i).inner_text() for i in range(sources.count())], flush=True)
        print("ask page: grew", len(before), "times before the answer was complete; last:", repr(before[-1]["text"][:80]),
              "| another page answered before the answer was complete:", not answered_meanwhile, flush=True)
        page.screenshot(path=f"{shots}/ask.png", full_page=True)
        ok("ask: an answer, then its sources")

        page.click('nav >> text="Tasks"')
        page.wait_for_selector("h1:has-text('Tasks')")
        assert page.locator("text=post the letter").count() >= 1
        page.screenshot(path=f"{shots}/tasks.png", full_page=True)
        ok("the tasks page")

        # Another browser profile, without the cookie: refused.
        stranger = browser.new_context().new_page()
        response = stranger.goto(base)
        assert response.status == 403 and "Errands" not in stranger.content()
        ok("another browser profile without the token is refused")
        browser.close()
except BaseException:
    server.kill()
    raise

assert not dialogs, dialogs
server.send_signal(signal.SIGTERM)
assert server.wait(timeout=60) == 0
assert "stopped" in server.stderr.read()
ok("SIGTERM stops the server cleanly")
