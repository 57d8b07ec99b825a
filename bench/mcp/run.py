"""Times `notes mcp` through the official MCP Python SDK's client beside `notes search` as a process.

    run.py NOTES_BINARY NOTES_HOME RUNS

Each query is asked both ways in turn (client round trip, then the process), so both see the same
machine load; `tools/list` is timed after, in a loop of its own; the figures are medians in
milliseconds. The client is the SDK's default: it probes
`server/discover` and speaks 2026-07-28; its round trip includes validating each result against
the tool's output schema, as any SDK client does.
"""
import os
import statistics
import subprocess
import sys
import time

import anyio
from mcp import Client, StdioServerParameters

BINARY, HOME, RUNS = sys.argv[1], sys.argv[2], int(sys.argv[3])
ENV = {"NOTES_HOME": HOME, "LANG": "C.UTF-8", "NOTES_READER_MODEL": "none"}
WORDS = ("meeting budget report dentist groceries invoice project deadline review draft garden kitchen doctor "
         "exam lecture recipe flight hotel passport insurance salary sprint release backup birthday guitar").split()
QUERIES = [WORDS[i % len(WORDS)] + " " + WORDS[(i * 7 + 3) % len(WORDS)] for i in range(RUNS)]


def process_ms(arguments):
    start = time.perf_counter()
    subprocess.run([BINARY, *arguments], env={**ENV, "PATH": "/usr/bin:/bin"}, stdout=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - start) * 1000


async def main():
    times = {name: [] for name in ("client hybrid", "process hybrid", "client words", "process words", "tools/list")}
    async with Client(StdioServerParameters(command=BINARY, args=["mcp"], env=ENV)) as client:
        print(f"protocol {client.protocol_version}")
        # The first search loads the embedding model into the server; a client keeps its server.
        await client.call_tool("search", {"query": "warm up"})
        process_ms(["search", "--json", "warm up"])
        for query in QUERIES:
            for mode, cli in (("hybrid", []), ("words", ["--exact"])):
                start = time.perf_counter()
                result = await client.call_tool("search", {"query": query, "mode": mode, "limit": 50})
                times[f"client {mode}"].append((time.perf_counter() - start) * 1000)
                assert not result.is_error and result.structured_content["results"], result
                times[f"process {mode}"].append(process_ms(["search", "--json", *cli, query]))
        # tools/list has no process to compare with: timed in a loop of its own, after the searches
        # (interleaved with them it also measured the process starts' effect on the caches).
        for _ in QUERIES:
            start = time.perf_counter()
            await client.list_tools()
            times["tools/list"].append((time.perf_counter() - start) * 1000)
    median = {name: statistics.median(values) for name, values in times.items()}
    for name, value in median.items():
        print(f"{name:<16} median {value:7.2f} ms  (p10 {statistics.quantiles(times[name], n=10)[0]:.2f}, "
              f"p90 {statistics.quantiles(times[name], n=10)[-1]:.2f}, {len(times[name])} runs)")
    for mode in ("hybrid", "words"):
        ratio = median[f"client {mode}"] / median[f"process {mode}"]
        print(f"search ({mode}): the client's round trip is {ratio:.2f}x `notes search` as a process (target at most 1x)")
    print(f"tools/list: {median['tools/list']:.2f} ms (target under 5 ms)")


anyio.run(main)
