"""docs/mcp.md says what `evfind mcp` does today: its client configurations start the command
with arguments it takes, its tools and their arguments are the server's, and the figures it
quotes are in the benchmark output it cites. (Its Python example is run by tests/test_readme.py,
as every page's are.)"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from evfind.mcp_tools import TOOLS

from .conftest import REPO
from .test_readme import SPAN, figures
from .test_skill import commands

DOCS = REPO / "docs" / "mcp.md"


def docs() -> str:
    return DOCS.read_text(encoding="utf-8")


def evfind_arguments(command: str, args: list[str]) -> list[str]:
    """The arguments evfind itself is given by a host's command and arguments."""
    name = Path(command).name
    if name.startswith("python"):
        assert args[:2] == ["-m", "evfind"], args
        return args[2:]
    assert name == "evfind", command
    return args


def check_mcp_arguments(arguments: list[str]) -> None:
    assert arguments[0] == "mcp", arguments
    options = {word for word in arguments[1:] if word.startswith("-")}
    assert options <= commands()["mcp"], sorted(options)


def test_the_client_configurations_start_evfind_mcp_with_its_own_options():
    blocks = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", docs(), re.S)]
    assert len(blocks) >= 2
    for block in blocks:
        server = block["mcpServers"]["evfind"]
        check_mcp_arguments(evfind_arguments(server["command"], server["args"]))
    assert any("--ingest" in block["mcpServers"]["evfind"]["args"] for block in blocks)
    (added,) = re.findall(r"`(claude mcp add evfind -- [^`]+)`", docs())
    command, *args = shlex.split(added.split(" -- ", 1)[1])
    check_mcp_arguments(evfind_arguments(command, args))
    usage = re.search(r"```\n(evfind mcp [^\n]+)\n```", docs()).group(1)
    assert set(re.findall(r"--[\w-]+", usage)) == {opt for opt in commands()["mcp"] if opt.startswith("--")} - {"--help"}


def test_the_tools_and_their_arguments_are_the_servers():
    text = docs()
    headings = re.findall(r"^### `(\w+)\(([^)]*)\)`$", text, re.M)
    assert [name for name, _ in headings] == [tool["name"] for tool in TOOLS]
    sections = re.split(r"^### ", text, flags=re.M)[1:]
    for tool, (name, arguments), section in zip(TOOLS, headings, sections, strict=True):
        properties = tool["input_schema"]["properties"]
        assert [a.strip().rstrip("?") for a in arguments.split(",") if a.strip()] == list(properties)
        required = set(tool["input_schema"].get("required", ()))
        assert {a.strip() for a in arguments.split(",") if a.strip() and not a.strip().endswith("?")} == required
        rows = re.findall(r"^\| `(\w+)` \|", section, re.M)
        assert rows == list(properties), name


def test_the_figures_it_quotes_are_the_benchmarks():
    spans = SPAN.findall(docs())
    assert [name for name, _ in spans] == ["benchmarks/mcp_calls.txt"]
    (name, text), = spans
    quoted = figures(text)
    assert len(quoted) >= 4
    missing = sorted(quoted - figures((REPO / name).read_text(encoding="utf-8")), key=float)
    assert not missing, f"docs/mcp.md quotes {missing}, which {name} does not hold: update docs/mcp.md"
