"""What `evfind mcp` costs over the Python API: a find_evidence call through the MCP SDK's stdio
client against Finder.query in-process and against the protocol's own floor, and the server's
memory over many calls in a row. Every figure is measured in the same run, interleaved.

    python benchmarks/mcp_calls.py --output benchmarks/mcp_calls.txt
    python benchmarks/mcp_calls.py --db CACHE/BOEING_2022_10K.db --questions ../shared/financebench/questions.jsonl

After a warm-up (every question once), ROUNDS rounds in which each kind of call is made CALLS
times in a row, the kinds taking turns: Finder.query in-process; Library.call (evfind/mcp_server.py:
the tool's work, with Answer.to_dict and the JSON text, no MCP); a ping (the protocol's round trip,
no tool); list_documents (the cheapest tool: the protocol with a tool's dispatch, its result and
the client's check of it against the output schema); find_evidence through the client. Each call
follows a pause of 2 ms (PAUSE): on a busy machine a process that has run for a while waits behind
the others and one that has slept does not, so a call timed right after another pays for it.

Two figures per kind: the latency of a call (median), which a busy machine stretches, and its CPU
time (this process's, and the server's from /proc/PID/stat, per call: the median block), which it
does not. The server's resident memory (/proc/PID/status VmRSS) is read after those, then every
CALLS calls of MEMORY_CALLS find_evidence calls in a row.

Questions: sample/questions.jsonl's, in English and in Chinese, by default (sample.db's own
tests); --questions FILE takes one a line, or JSONL with "question" (and "question_zh").
A call that fails stops the run (a benchmark never times an error as an answer).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# This file's own folder is first on sys.path when it runs as a script, where this file would
# stand for the MCP SDK's package `mcp`: the folder is left out, the repository put first.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != REPO / "benchmarks"]
sys.path.insert(0, str(REPO))


def load_questions(path: Path, db: Path) -> list[str]:
    """The questions of a file: one a line, or JSONL ("question", and "question_zh" after them);
    of labelled JSONL, those about the database's filing ("doc_name" its file name) if any are."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not lines[0].lstrip().startswith("{"):
        return lines
    items = [json.loads(line) for line in lines]
    items = [item for item in items if item.get("doc_name") == db.stem] or items
    return [item["question"] for item in items] + [item["question_zh"] for item in items if item.get("question_zh")]


def rss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def server_pid() -> int | None:
    """The `evfind mcp` process this one started (the stdio client's child), from /proc."""
    me = str(os.getpid())
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ppid = stat.rsplit(")", 1)[1].split()[1]
        if ppid == me and b"evfind" in cmdline and b"mcp" in cmdline:
            return int(entry.name)
    return None


PAUSE = 0.002  # seconds slept before each timed call


def cpu_seconds(pid: int | None) -> tuple[float, float]:
    """CPU time used so far by this process and by the server (all its threads: /proc/PID/stat's
    utime and stime, in clock ticks; 0 where there is no /proc)."""
    server = 0.0
    if pid:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            server = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            pass
    return time.process_time(), server


def ms(seconds: list[float]) -> float:
    return statistics.median(seconds) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=REPO / "sample.db", help="the database served (default: sample.db)")
    parser.add_argument("--questions", type=Path, default=REPO / "sample" / "questions.jsonl")
    parser.add_argument("--calls", type=int, default=100, help="calls in a row per round and per kind (default 100)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds of timing (default 3)")
    parser.add_argument("--memory-calls", type=int, default=1000, help="find_evidence calls in a row for memory (default 1000)")
    parser.add_argument("--output", type=Path, help="also write the report here")
    args = parser.parse_args()

    import anyio

    report = anyio.run(measure, args)
    print(report)
    if args.output:
        args.output.write_text(report + "\n", encoding="utf-8")


async def measure(args) -> str:
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    from evfind import Finder, __version__
    from evfind.mcp_server import Library

    questions = load_questions(args.questions, args.db)
    sequence = [questions[i % len(questions)] for i in range(args.calls)]

    @asynccontextmanager
    async def connect():
        params = StdioServerParameters(command=sys.executable, args=["-m", "evfind", "mcp", str(args.db)])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await session.list_tools()
                yield session

    finder = Finder(args.db)
    library = Library([args.db])
    times: dict[str, list[float]] = {name: [] for name in ("finder", "library", "ping", "list", "mcp")}
    cpu: dict[str, list[list[float]]] = {name: [] for name in times}  # per block: [this process, server]
    memory: list[tuple[int, int | None]] = []
    async with connect() as session:
        pid = server_pid()
        # The SDK's client makes this process's heap larger than an evfind program's: frozen out
        # of the collector's scans, so the in-process figures are not slowed by it.
        gc.collect()
        gc.freeze()

        async def call(tool, arguments):
            result = await session.call_tool(tool, arguments)
            if result.is_error:
                raise SystemExit(f"{tool}({arguments}) failed: {result.content[0].text}")
            return result

        for question in questions:  # warm-up: every question once on each side
            finder.query(question)
            library.call("find_evidence", {"question": question})
            await call("find_evidence", {"question": question})
        kinds = {
            "finder": lambda question: finder.query(question),
            "library": lambda question: library.call("find_evidence", {"question": question}),
            "ping": lambda question: session.send_ping(),
            "list": lambda question: call("list_documents", {}),
            "mcp": lambda question: call("find_evidence", {"question": question}),
        }
        names = list(kinds)
        for round_ in range(args.rounds):
            for name in names[round_ % 5:] + names[:round_ % 5]:  # the kinds take turns
                send = kinds[name]
                before = cpu_seconds(pid)
                for question in sequence:
                    await anyio.sleep(PAUSE)
                    start = time.perf_counter()
                    result = send(question)
                    if name not in ("finder", "library"):
                        await result
                    times[name].append(time.perf_counter() - start)
                used = [after - earlier for after, earlier in zip(cpu_seconds(pid), before)]
                cpu[name].append([seconds / len(sequence) for seconds in used])
        memory.append((0, rss_kib(pid) if pid else None))
        for calls in range(1, args.memory_calls + 1):  # in a row
            await call("find_evidence", {"question": questions[calls % len(questions)]})
            if calls % args.calls == 0:
                memory.append((calls, rss_kib(pid) if pid else None))
    finder.close()
    library.close()

    wall = {name: ms(values) for name, values in times.items()}
    # CPU per call, this process's and the server's: the median block of each kind
    spent = {name: [statistics.median(block[i] for block in blocks) * 1000 for i in (0, 1)] for name, blocks in cpu.items()}
    from importlib.metadata import version

    labels = {
        "finder": "Finder.query in-process",
        "library": "Library.call find_evidence",
        "ping": "ping over stdio",
        "list": "list_documents over stdio",
        "mcp": "find_evidence over stdio",
    }
    notes = {
        "library": "the tool without MCP: + to_dict, JSON",
        "ping": "the protocol's round trip",
        "list": "the protocol's floor for a tool call",
    }
    lines = [
        "evfind MCP server benchmark (benchmarks/mcp_calls.py)",
        "===============================================",
        f"evfind {__version__}, Python {platform.python_version()}, mcp {version('mcp')}",
        f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at end",
        f"database: {args.db.name}; questions: {len(questions)} ({args.questions.name}), asked in turn",
        f"{args.rounds} rounds of {args.calls} calls of each kind, the kinds in turn, each call after a pause of "
        f"{PAUSE * 1000:.0f} ms",
        "",
        "One call: latency (median) and CPU time (client + server, per call; a busy machine stretches the first,",
        "not the second)",
        "-" * 100,
        f"  {'':32} {'latency':>10} {'':>7}   {'CPU':>8} {'client':>8} {'server':>8} {'':>7}",
    ]
    total = {name: sum(spent[name]) for name in spent}
    for name in labels:
        lines.append(
            f"  {labels[name]:32} {wall[name]:7.2f} ms {wall[name] / wall['finder']:6.2f}x   {total[name]:5.2f} ms "
            f"{spent[name][0]:5.2f} ms {spent[name][1]:5.2f} ms {total[name] / total['finder']:6.2f}x"
            + (f"  ({notes[name]})" if name in notes else "")
        )

    lines += [
        "",
        f"  find_evidence / (Finder.query + list_documents)   latency {wall['mcp'] / (wall['finder'] + wall['list']):.2f}x"
        f"   CPU {total['mcp'] / (total['finder'] + total['list']):.2f}x   (target: within 2x)",
        f"  find_evidence / (Finder.query + ping)             latency {wall['mcp'] / (wall['finder'] + wall['ping']):.2f}x"
        f"   CPU {total['mcp'] / (total['finder'] + total['ping']):.2f}x",
        f"  (find_evidence - list_documents) / Finder.query   latency {(wall['mcp'] - wall['list']) / wall['finder']:.2f}x"
        f"   CPU {(total['mcp'] - total['list']) / total['finder']:.2f}x",
        "",
        f"Server memory over {args.memory_calls} find_evidence calls in a row, after the timed ones (resident set)",
        "-" * 60,
    ]
    start = memory[0][1]
    for count, kib in memory:
        if kib is None or start is None:
            lines.append(f"  after {count:4d} calls   (no /proc here: not measured)")
        else:
            lines.append(f"  after {count:4d} calls   {kib / 1024:7.1f} MiB   {kib / start:.3f}x")
    if start is not None and memory[-1][1] is not None and len(memory) > 2:
        first = (memory[1][1] - memory[0][1]) / 1024
        last = (memory[-1][1] - memory[-2][1]) / 1024
        lines.append(f"  growth: {first:+.2f} MiB over the first {args.calls} calls, {last:+.2f} MiB over the last {args.calls}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
