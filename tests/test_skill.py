"""SKILL.md, the skill file an agent loads: its front matter is what the Agent Skills format
asks for (https://agentskills.io/specification: a name of lower-case words joined by hyphens,
a description of what it does and when to use it, of at most 1,024 characters), it lists the
Chinese triggers, and every command, option and MCP tool it shows exists."""

from __future__ import annotations

import re
import shlex

import pytest
import typer.main

from evfind.cli import app
from evfind.mcp_tools import TOOLS

from .conftest import REPO

SKILL = REPO / "SKILL.md"


def parts() -> tuple[dict, str]:
    yaml = pytest.importorskip("yaml", reason="PyYAML reads the front matter (the test extra has it, through Datasette)")
    text = SKILL.read_text(encoding="utf-8")
    match = re.match(r"---\n(.*?)\n---\n(.*)", text, re.S)
    assert match, "SKILL.md starts with YAML front matter between --- lines"
    return yaml.safe_load(match.group(1)), match.group(2)


def test_the_front_matter_is_an_agent_skills_one():
    front, body = parts()
    assert {"name", "description"} <= set(front)
    assert set(front) <= {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
    assert front["name"] == "evfind"
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", front["name"]) and len(front["name"]) <= 64
    assert 100 < len(front["description"]) <= 1024
    assert len(front.get("compatibility", "")) <= 500
    for words in ("which page", "never computes", "哪一页", "出自哪页", "原始表格在哪"):
        assert words in front["description"]
    assert body.lstrip().startswith("# ")


def test_it_says_when_how_and_what_not():
    _, body = parts()
    headings = re.findall(r"^## (.+)$", body, re.M)
    assert headings == ["When to use it", "How to call it", "How to read the answer", "What not to do"]
    for triggers in ("哪一页", "出自哪页", "原始表格在哪", "第几页"):
        assert triggers in body
    for words in ("physical page", "page_label", "document_sha256", "confidence", "read_page", "Do not cite a page"):
        assert words in body


def commands() -> dict[str, set[str]]:
    """Every evfind command with its options, as the command line parses them."""
    group = typer.main.get_command(app)
    return {name: {opt for param in command.params for opt in param.opts + param.secondary_opts}
            for name, command in group.commands.items()}


def test_every_command_and_option_it_shows_exists():
    _, body = parts()
    known = commands()
    shown = [line for block in re.findall(r"```console\n(.*?)```", body, re.S) for line in block.splitlines()]
    inline = re.findall(r"`(evfind [^`]+)`", body)
    assert len(shown) >= 4 and len(inline) >= 2
    for line in shown + inline:
        words = shlex.split(line)
        assert words[0] == "evfind" and words[1] in known, line
        options = {word.split("=")[0] for word in words[2:] if word.startswith("-")}
        assert options <= known[words[1]], f"{line}: {sorted(options - known[words[1]])} is not an option"
    assert "mcp" in {shlex.split(line)[1] for line in inline}


def test_every_tool_and_argument_it_names_exists():
    _, body = parts()
    tools = {tool["name"]: set(tool["input_schema"]["properties"]) for tool in TOOLS}
    called = re.findall(r"`(\w+)\(([^)`]*)\)`", body)
    assert {name for name, _ in called} == set(tools)
    for name, arguments in called:
        named = {argument.strip().rstrip("?") for argument in arguments.split(",") if argument.strip()}
        assert named <= tools[name], f"{name}({arguments})"
    for argument in ("document", "top", "lang", "lines"):
        assert f"`{argument}`" in body or f"{argument}?" in body
