"""Drives `notes mcp` with the official MCP Python SDK's stdio client (mcp 2.3.0).

Run by MCPClientTests.swift: python mcp_client_check.py BINARY HOME [--reader MODEL]. The notebook
in HOME holds the notes the Swift test added (see there). Each check prints "ok NAME"; the first
failure raises and the script exits 1. With --reader, only `ask` is checked, with that model.
"""

import json
import os
import signal
import subprocess
import sys
import warnings

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp.shared.message import SessionMessage

BINARY, HOME = sys.argv[1], sys.argv[2]
READER = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--reader" else None
ENV = {
    "NOTES_HOME": HOME,
    "LANG": "C.UTF-8",
    "NOTES_READER_MODEL": READER or "none",
    "NOTES_EMBEDDING_MODEL": os.environ.get("NOTES_EMBEDDING_MODEL", "none"),
}
# The handshake era's resources/subscribe and ping are what is checked there, deprecated or not.
warnings.simplefilter("ignore", MCPDeprecationWarning)
READ_TOOLS = ["search", "show", "related", "links", "tasks", "ask"]
WRITE_TOOLS = ["add", "append", "done"]


def ok(name):
    print("ok", name, flush=True)


def registration():
    """The command and arguments the README tells a client to register, read from the README."""
    readme = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "README.md"), encoding="utf-8").read()
    block = next(part.split("```")[0] for part in readme.split("```json\n")[1:] if '"mcpServers"' in part)
    entry = json.loads(block)["mcpServers"]["notes"]
    return entry["command"], entry["args"]


# `notes` as the README registers it, found on the PATH like a client finds it.
os.environ["PATH"] = os.path.dirname(BINARY) + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin")
COMMAND, ARGS = registration()


def server(*extra):
    return StdioServerParameters(command=COMMAND, args=[*ARGS, *extra], env=ENV)


def notes(*arguments):
    """Runs `notes` as another process beside the server, and returns its stdout."""
    result = subprocess.run([BINARY, *arguments], env={**ENV, "PATH": "/usr/bin:/bin"}, capture_output=True, text=True, check=True)
    return result.stdout


def note_ids():
    return {note["id"] for note in json.loads(notes("list", "--json"))}


def by_title(title):
    return next(note["id"] for note in json.loads(notes("list", "--json")) if note["title"] == title)


def text_of(result):
    return "".join(block.text for block in result.content if block.type == "text")


class Notifications:
    """The server's notifications as they arrive, and a way to wait for one."""

    def __init__(self):
        self.seen = []
        self.changed = anyio.Event()

    async def __call__(self, message):
        if not isinstance(message, Exception):
            self.seen.append(message)
            self.changed.set()

    async def wait_for(self, predicate):
        while not any(predicate(message) for message in self.seen):
            self.changed = anyio.Event()
            await self.changed.wait()


def method_of(message):
    return getattr(message, "method", None) or getattr(getattr(message, "root", None), "method", None)


async def check_tools_and_resources(client, era):
    tools = await client.list_tools()
    assert [tool.name for tool in tools.tools] == READ_TOOLS, [tool.name for tool in tools.tools]
    for tool in tools.tools:
        assert tool.input_schema["type"] == "object" and tool.output_schema["type"] == "object", tool.name
        assert tool.annotations.read_only_hint is True, tool.name
    ok(f"{era}: tools/list names the read tools, each with its schemas")

    dentist = by_title("Call the dentist tomorrow")
    errands = by_title("Errands")
    found = await client.call_tool("search", {"query": "dentist"})
    assert not found.is_error, text_of(found)
    assert dentist in [hit["id"] for hit in found.structured_content["results"]], found.structured_content
    assert json.loads(text_of(found)) == found.structured_content
    filtered = await client.call_tool("search", {"query": "tag:home", "mode": "words", "limit": 5})
    assert [hit["id"] for hit in filtered.structured_content["results"]] == [errands], filtered.structured_content
    ok(f"{era}: search finds by words and filters")

    shown = await client.call_tool("show", {"id": dentist[-6:]})
    assert not shown.is_error and shown.structured_content["id"] == dentist, text_of(shown)
    assert shown.structured_content["title"] == "Call the dentist tomorrow"
    ok(f"{era}: show reads a note by its handle")

    # The piano note is never edited: its vector stays current (a read-only server makes none).
    piano = by_title("Piano lesson moved to Thursday")
    related = await client.call_tool("related", {"id": piano, "limit": 3})
    if ENV["NOTES_EMBEDDING_MODEL"] == "none":
        assert related.is_error and "no vector" in text_of(related), text_of(related)
    else:
        assert not related.is_error, text_of(related)
        # The other two notes are about other things: only those above the model's floor are listed.
        hits = related.structured_content["results"]
        assert piano not in [hit["id"] for hit in hits], related.structured_content
        assert all(hit["score"] >= 0.3 for hit in hits), related.structured_content
    ok(f"{era}: related")

    links = await client.call_tool("links", {"id": errands})
    assert not links.is_error, text_of(links)
    assert [link["id"] for link in links.structured_content["links"]] == [dentist], links.structured_content
    backlinks = await client.call_tool("links", {"id": dentist})
    assert [link["id"] for link in backlinks.structured_content["backlinks"]] == [errands]
    ok(f"{era}: links and backlinks")

    tasks = await client.call_tool("tasks", {})
    assert not tasks.is_error, text_of(tasks)
    texts = [task["text"] for task in tasks.structured_content["tasks"]]
    assert "buy milk" in texts, texts
    due = await client.call_tool("tasks", {"due": "overdue"})
    assert not due.is_error and due.structured_content["tasks"] == [], due.structured_content
    ok(f"{era}: tasks, with due")

    ask = await client.call_tool("ask", {"question": "when is the dentist?"})
    assert ask.is_error and "reading model" in text_of(ask), text_of(ask)
    ok(f"{era}: ask without the reading model is a clear tool error")

    resources = await client.list_resources()
    assert {resource.uri for resource in resources.resources} == {f"notes://{id}" for id in note_ids()}
    assert all(resource.mime_type == "text/markdown" for resource in resources.resources)
    read = await client.read_resource(f"notes://{dentist}")
    text = read.contents[0].text
    assert text.startswith("---\n") and f"id: {dentist}" in text and "\n---\nCall the dentist tomorrow\n" in text, text
    templates = await client.list_resource_templates()
    assert templates.resource_templates[0].uri_template == "notes://{id}"
    try:
        await client.read_resource("notes://ffffffffffff")
        raise AssertionError("an unknown note was read")
    except MCPError as error:
        assert "no note is notes://ffffffffffff" in error.error.message, error.error.message
    ok(f"{era}: resources are listed and read as Markdown with front matter")

    await check_bad_input(client, era)


async def check_bad_input(client, era):
    before = note_ids()
    try:
        await client.call_tool("frobnicate", {})
        raise AssertionError("an unknown tool was called")
    except MCPError as error:
        assert error.error.code == -32602 and "Unknown tool 'frobnicate'" in error.error.message, error.error.message
    missing = await client.call_tool("search", {})
    assert missing.is_error and "missing the required argument 'query'" in text_of(missing), text_of(missing)
    wrong = await client.call_tool("search", {"query": 7})
    assert wrong.is_error and "'query' must be a string, not a number" in text_of(wrong), text_of(wrong)
    extra = await client.call_tool("show", {"id": "x", "verbose": True})
    assert extra.is_error and "unknown argument 'verbose'" in text_of(extra), text_of(extra)
    out_of_range = await client.call_tool("search", {"query": "x", "limit": 0})
    assert out_of_range.is_error and "'limit' must be at least 1, not 0" in text_of(out_of_range)
    bad_filter = await client.call_tool("search", {"query": "urgency:high"})
    assert bad_filter.is_error and "urgency:high" in text_of(bad_filter), text_of(bad_filter)
    for name, arguments in [("add", {"text": "sneaky"}), ("append", {"id": "x", "text": "y"}), ("done", {"id": "x", "number": 1})]:
        refused = await client.call_tool(name, arguments)
        assert refused.is_error and "--allow-write" in text_of(refused), text_of(refused)
    try:
        await client.session.send_request(types.Request(method="notes/frobnicate", params=None), types.EmptyResult)
        raise AssertionError("an unknown method was answered")
    except MCPError as error:
        assert error.error.code == -32601 and "notes/frobnicate" in error.error.message, error.error.message
    assert note_ids() == before
    # The server still serves after all of that.
    assert [tool.name for tool in (await client.list_tools()).tools] == READ_TOOLS
    ok(f"{era}: unknown tool and method, arguments off the schema and writes without --allow-write are errors; nothing changed")


async def check_handshake():
    notifications = Notifications()
    async with Client(server(), mode="legacy", message_handler=notifications) as client:
        assert client.protocol_version == "2025-11-25", client.protocol_version
        assert client.server_info.name == "notes"
        assert client.server_capabilities.resources.subscribe is True
        ok(f"handshake: initialize negotiates 2025-11-25 (started as the README registers it: {COMMAND} {' '.join(ARGS)})")
        assert (await client.session.send_ping()) is not None
        await check_tools_and_resources(client, "handshake")

        dentist = by_title("Call the dentist tomorrow")
        await client.session.subscribe_resource(f"notes://{dentist}")
        notes("add", "A note from another process")
        await notifications.wait_for(lambda m: method_of(m) == "notifications/resources/list_changed")
        notes("edit", dentist, "--append", "Bring the insurance card")
        uri = f"notes://{dentist}"
        await notifications.wait_for(lambda m: method_of(m) == "notifications/resources/updated" and str(m.params.uri) == uri)
        read = await client.read_resource(uri)
        assert "Bring the insurance card" in read.contents[0].text
        ok("handshake: another process's add and edit are notified (list_changed, resources/updated)")


async def check_stateless():
    async with Client(server()) as client:
        assert client.protocol_version == "2026-07-28", client.protocol_version
        assert client.server_info is not None and client.server_info.name == "notes"
        ok("stateless: server/discover negotiates 2026-07-28")
        await check_tools_and_resources(client, "stateless")

        dentist = by_title("Call the dentist tomorrow")
        uri = f"notes://{dentist}"
        async with client.listen(resources_list_changed=True, resource_subscriptions=[uri]) as subscription:
            assert subscription.honored.resources_list_changed is True
            notes("add", "Another note from another process")
            seen = set()
            async for event in subscription:
                seen.add(type(event).__name__)
                if event.__class__.__name__ == "ResourcesListChanged":
                    notes("edit", dentist, "--append", "And the referral letter")
                if {"ResourcesListChanged", "ResourceUpdated"} <= seen:
                    break
        ok("stateless: a listen stream carries another process's changes")


async def check_writes():
    async with Client(server("--allow-write")) as client:
        names = [tool.name for tool in (await client.list_tools()).tools]
        assert names == READ_TOOLS + WRITE_TOOLS, names
        added = await client.call_tool("add", {"text": "Pick up the parcel #errands\n- [ ] bring the slip"})
        assert not added.is_error, text_of(added)
        new = added.structured_content["id"]
        assert json.loads(notes("show", new, "--json"))["title"] == "Pick up the parcel"
        appended = await client.call_tool("append", {"id": new, "text": "It is at the post office"})
        assert not appended.is_error, text_of(appended)
        assert json.loads(notes("show", new, "--json"))["body"].endswith("It is at the post office")
        errands = by_title("Errands")
        number = next(task["number"] for task in json.loads(notes("tasks", "--json")) if task["text"] == "buy milk")
        done = await client.call_tool("done", {"id": errands, "number": number})
        assert not done.is_error and done.structured_content["done"] is True, text_of(done)
        assert "buy milk" not in [task["text"] for task in json.loads(notes("tasks", "--json"))]
        empty = await client.call_tool("add", {"text": "   "})
        assert empty.is_error and "empty" in text_of(empty), text_of(empty)
        ok("--allow-write: add, append and done change the notebook, which other processes see")


async def check_huge_request():
    """A request over the size limit, sent through the SDK's own stdio transport."""
    async with stdio_client(server()) as (read_stream, write_stream):
        huge = types.JSONRPCRequest(jsonrpc="2.0", id=77, method="tools/call",
                                    params={"name": "search", "arguments": {"query": "x" * (17 * 1024 * 1024)}})
        await write_stream.send(SessionMessage(huge))
        answer = await read_stream.receive()
        error = answer.message
        assert isinstance(error, types.JSONRPCError) and error.id == 77, error
        assert "Request too large" in error.error.message, error.error.message
        ping = types.JSONRPCRequest(jsonrpc="2.0", id=78, method="initialize",
                                    params={"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})
        await write_stream.send(SessionMessage(ping))
        assert (await read_stream.receive()).message.id == 78
    ok("a huge request is an error to its id, and the server keeps serving")


def check_raw_endings():
    """What the SDK will not send: text that is not JSON, and the ways a server stops."""
    initialize = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                             "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}})
    process = subprocess.Popen([BINARY, "mcp"], env={**ENV, "PATH": "/usr/bin:/bin"}, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    process.stdin.write(b'{"jsonrpc": "2.0", "id": 1, "method"\n\xff\xfe\n' + initialize.encode() + b"\n")
    process.stdin.close()
    lines = [json.loads(line) for line in process.stdout.read().splitlines()]
    assert process.wait() == 0
    assert [line.get("error", {}).get("code") for line in lines] == [-32700, -32700, None], lines
    assert lines[2]["result"]["protocolVersion"] == "2025-11-25"
    ok("malformed JSON is a parse error; end of input ends the server cleanly (exit 0)")
    for stop in (signal.SIGTERM, signal.SIGINT):
        process = subprocess.Popen([BINARY, "mcp"], env={**ENV, "PATH": "/usr/bin:/bin"}, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
        process.stdin.write(initialize.encode() + b"\n")
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 1
        process.send_signal(stop)
        assert process.wait() == 0, process.returncode
        process.stdin.close()
    ok("SIGTERM and SIGINT end the server cleanly (exit 0)")


async def check_ask():
    async with Client(server()) as client:
        answer = await client.call_tool("ask", {"question": "What should I bring to the dentist?"})
        assert not answer.is_error, text_of(answer)
        assert answer.structured_content["answer"], answer.structured_content
        assert all(source["id"] in note_ids() for source in answer.structured_content["sources"])
    ok("ask answers with the reading model, citing only notes")


async def main():
    if READER:
        await check_ask()
        return
    await check_handshake()
    await check_stateless()
    await check_huge_request()
    check_raw_endings()
    await check_writes()


anyio.run(main)
