"""The README, docs/*.md and CONTRIBUTING.md show what evfind prints today, name only commands and
options that exist, link only to what exists, and quote only figures its benchmarks printed.

Commands. In a ```console block, a line starting with `$ ` is a command the tests run, in a
scratch directory holding a copy of sample.db and sample/ (a page's commands run in order, in
one directory, so an example may ingest and then query); the lines after it, up to the next `$ `,
are its standard output, compared whole. A line `...` there stands for any lines, and a line
ending in `...` for any line that starts as it does. `$ echo $?` after a command gives the exit
status it must have (0 otherwise). Any other `evfind ...` command, in a code block or an inline
code span, is either one of the two the README's own tests run (its first command, `evfind serve
sample.db`) or a template: it holds a placeholder in capitals (`DB`, `REPORT.pdf`, `N`), `...` or
a choice `a|b`, and then only its subcommand and options are checked against the CLI. A
`python benchmarks/X.py` or `python scripts/X.py` command names a script that exists and options
that script parses. ```python blocks run, in order, in a scratch directory that also holds
report.pdf (the test filing of tests/filing.py).

Links. Every relative link and image names a file that exists, and a `#anchor` a heading there.

Figures: every figure between `<!-- figures: benchmarks/NAME.txt -->` and `<!-- /figures -->`
appears in that committed benchmark output, so a rerun that changes them fails here until the
docs follow; every benchmark output the docs cite has such a span; and the retrieval table is the
retrieval benchmark's own rows. Test counts and times, which nothing regenerates, are not quoted.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .conftest import REPO

README = REPO / "README.md"
CONTRIBUTING = REPO / "CONTRIBUTING.md"
DOCS = REPO / "docs"


def pages() -> list[Path]:
    """Every page of the documentation: the README, docs/*.md and CONTRIBUTING.md."""
    return [README, *sorted(DOCS.glob("*.md")), CONTRIBUTING]


PAGES = {path.relative_to(REPO).as_posix(): path for path in pages()}


def readme() -> str:
    return README.read_text(encoding="utf-8")


def text_of(name: str) -> str:
    return PAGES[name].read_text(encoding="utf-8")


# Fenced blocks: ```lang ... ```, at the start of a line or indented in a list item.
FENCE = re.compile(r"^[ \t]*```([\w-]*)\n(.*?)^[ \t]*```[ \t]*$", re.S | re.M)
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)


def fenced(text: str) -> list[tuple[str, str]]:
    """(language, body) of each fenced block, its indentation removed."""
    return [(kind, textwrap.dedent(body)) for kind, body in FENCE.findall(text)]


def blocks(text: str, lang: str) -> list[str]:
    return [body for kind, body in fenced(text) if kind == lang]


def prose(text: str) -> str:
    """The text outside fenced blocks."""
    return FENCE.sub("", text)


def scratch(tmp_path: Path) -> Path:
    """A directory with what the examples read: sample.db, sample/ and report.pdf."""
    from .filing import LABELS, PAGES as FILING
    from .pdfgen import make_pdf

    shutil.copyfile(REPO / "sample.db", tmp_path / "sample.db")
    shutil.copytree(REPO / "sample", tmp_path / "sample")
    make_pdf(tmp_path / "report.pdf", FILING, LABELS)
    return tmp_path


# ---------------------------------------------------------------------------------------------
# Console examples


class Example:
    def __init__(self, command: str, shown: str, status: int = 0):
        self.command, self.shown, self.status = command, shown, status


def examples(text: str) -> list[Example]:
    """The `$ ` commands of the console blocks, with the output and exit status shown."""
    found: list[Example] = []
    for body in blocks(text, "console"):
        if not body.startswith("$ "):
            continue  # commands to type, with no output shown: see test_every_command_is_checked
        for chunk in re.split(r"^\$ ", body.rstrip("\n"), flags=re.M)[1:]:
            command, _, shown = chunk.partition("\n")
            if command == "echo $?":
                found[-1].status = int(shown.strip())
            else:
                found.append(Example(command, shown.rstrip("\n")))
    return found


def matches(shown: str, printed: str) -> bool:
    """The printed output is the one shown: line for line, `...` standing for any lines and a
    line ending in `...` for any line that starts so."""
    pattern = []
    for line in shown.split("\n") if shown else []:
        if line.strip() == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        elif line.endswith("..."):
            pattern.append(re.escape(line[:-3]) + r"[^\n]*\n")
        else:
            pattern.append(re.escape(line) + r"\n")
    printed = printed.rstrip("\n")
    return re.fullmatch("".join(pattern), printed + "\n" if printed else "") is not None


def test_the_output_pattern():
    assert matches("a\n...\nd", "a\nb\nc\nd\n")
    assert matches("a\n...\nd", "a\nd")
    assert matches("a\n...", "a\nb")
    assert matches("ab...\nc", "abz\nc")
    assert not matches("a\n...\nd", "a\nb\nc")
    assert not matches("a\nc", "a\nb\nc")
    assert not matches("ab...\nc", "xab\nc")
    assert matches("", "\n") and not matches("", "a")


SHELL = re.compile(r"[|<>&;$`]")  # a command that needs the shell runs through bash


def run(cli, command: str, cwd: Path) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of a command as a user types it in ``cwd``. A plain `evfind`
    command runs in-process (as the CLI tests run it); anything else through bash, evfind on the
    PATH, with the same terminal settings (100 columns, no colour)."""
    if command.startswith("evfind ") and not SHELL.search(command):
        result = cli(*shlex.split(command)[1:])
        return result.exit_code, result.stdout, result.stderr
    env = {**os.environ, "COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def test_readme_query_output_is_current(cli, monkeypatch):
    match = re.search(r"```console\npip install \. && (evfind query [^\n]+)\n```\n\n```\n(.*?)\n```", readme(), re.S)
    assert match, "the README's first command and its output block were not found"
    command, shown = match.groups()
    args = shlex.split(command)[1:]
    monkeypatch.chdir(REPO)
    result = cli(*args)
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip("\n") == shown, "update the README's sample output"


def test_there_are_examples_of_each_kind():
    """The examples checked below include partial outputs and exit statuses other than 0."""
    every = [example for name in PAGES for example in examples(text_of(name))]
    assert len(every) >= 20
    assert any(example.shown.endswith("\n...") for example in every)
    assert any(re.search(r"\n *\.\.\.\n", example.shown) for example in every)
    assert any(example.status for example in every)
    assert examples(readme())


@pytest.mark.parametrize("name", sorted(PAGES))
def test_console_examples_are_current(name, cli, tmp_path, monkeypatch):
    """Every `$ ` command of the page, run in order in one scratch directory: its exit status and
    its output as shown."""
    found = examples(text_of(name))
    if not found:
        return
    cwd = scratch(tmp_path)
    monkeypatch.chdir(cwd)
    for example in found:
        status, stdout, stderr = run(cli, example.command, cwd)
        assert status == example.status, f"{name}: `{example.command}` exited {status}:\n{stdout}{stderr}"
        if not matches(example.shown, stdout):
            diff = "\n".join(difflib.unified_diff(example.shown.splitlines(), stdout.splitlines(), "shown", "printed", lineterm=""))
            pytest.fail(f"{name}: update the output of `{example.command}`:\n{diff}")


def test_json_examples_are_current(cli, monkeypatch):
    """A ```json block introduced as "(here `evfind query sample.db ...`):" is that command's
    output, as JSON (it may be laid out more compactly than evfind prints it)."""
    monkeypatch.chdir(REPO)
    found = 0
    for name in PAGES:
        for command, shown in re.findall(r"\(here `(evfind query sample\.db[^`]+)`\):\n\n```json\n(.*?)\n```", text_of(name), re.S):
            result = cli(*shlex.split(" ".join(command.split()))[1:])
            assert result.exit_code == 0, result.output
            assert json.loads(result.stdout) == json.loads(shown), f"{name}: update the output of: {command}"
            found += 1
    assert found, "the README's JSON example was not found"


SERVE = re.compile(r"```console\n[^\n]*\n(evfind serve sample\.db)\n```\n\n```\n(.*?)\n```", re.S)


def test_serve_output_is_current(tmp_path):
    """`evfind serve sample.db` prints the two lines the README shows (on a free port here)."""
    shown = {name: match[1] for name in PAGES for match in SERVE.findall(text_of(name))}
    assert "README.md" in shown, "the README's serve example was not found"
    shutil.copyfile(REPO / "sample.db", tmp_path / "sample.db")
    process = subprocess.Popen(
        [sys.executable, "-m", "evfind", "serve", "sample.db", "--port", "0"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        lines = [process.stdout.readline(), process.stdout.readline()]
    finally:
        process.terminate()
        process.communicate(timeout=30)
    port = re.search(r"127\.0\.0\.1:(\d+)/", lines[0])
    assert port, lines
    printed = "".join(lines).replace(f"127.0.0.1:{port.group(1)}/", "127.0.0.1:8001/").rstrip("\n")
    for name, output in shown.items():
        assert printed == output, f"{name}: update the output of evfind serve"


# ---------------------------------------------------------------------------------------------
# Every command named: run above, or a template whose subcommand and options exist


def commands(text: str) -> list[tuple[str, bool]]:
    """Every `evfind ...` command the page shows, with whether it is a `$ ` example (run above):
    the lines of code blocks (after `$ `, `&&` or `|`, comments dropped) and the inline code
    spans that start with `evfind `."""
    found = []
    for kind, body in fenced(text):
        if kind not in ("console", "sh", "bash", "shell"):
            continue
        for line in body.splitlines():
            example = line.startswith("$ ")
            for part in re.split(r"&&|\|\s", line[2:] if example else line):
                part = re.sub(r"\s+#.*$", "", part).strip()
                if part.startswith("evfind "):
                    found.append((part, example))
    for _, span in CODE_SPAN.findall(prose(text)):
        span = " ".join(span.split()).replace("\\|", "|")
        if span.startswith("evfind "):
            found.append((span, False))
    return found


def is_template(command: str) -> bool:
    """A command that is not meant to be run as written: it holds a placeholder in capitals
    (DB, REPORT.pdf, N), `...` or a choice `a|b`."""
    for token in words(command):
        bare = token.strip("[]()")
        if "..." in token or ("|" in bare and bare != "|") or re.fullmatch(r"[A-Z][A-Z0-9_]*(\.[a-z]+)?", bare):
            return True
    return False


def words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:  # an unclosed quote in a template
        return command.split()


def cli_options() -> dict[str, set[str]]:
    """Each command of the CLI with the options it takes."""
    import typer.main

    from evfind.cli import app

    group = typer.main.get_command(app)
    return {
        name: {option for param in command.params for option in (*param.opts, *param.secondary_opts)} | {"-h", "--help"}
        for name, command in group.commands.items()
    }


def test_the_template_test():
    assert is_template("evfind ingest REPORT.pdf") and is_template("evfind query DB --top N")
    assert is_template('evfind query sample.db "..."') and is_template("evfind query sample.db -f table|json")
    assert not is_template('evfind query sample.db "What is ACME capex?" --top 2')
    assert not is_template("evfind show sample.db 38")


def checked_elsewhere() -> set[str]:
    """The commands the tests above run besides the `$ ` examples: the README's first command,
    the JSON examples' and `evfind serve sample.db`."""
    found = {"evfind serve sample.db"}
    first = re.search(r"```console\npip install \. && (evfind query [^\n]+)\n```", readme())
    if first:
        found.add(first.group(1))
    for name in PAGES:
        found |= {" ".join(command.split()) for command in re.findall(r"\(here `(evfind query sample\.db[^`]+)`\):\n\n```json\n", text_of(name))}
    return found


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_command_is_checked(name):
    """Each `evfind ...` command on the page is run as a `$ ` example, is one the README's tests
    run, or is a template; each names a command of the CLI, and options that command takes."""
    options = cli_options()
    elsewhere = checked_elsewhere()
    for command, example in commands(text_of(name)):
        tokens = words(command)
        subcommand = tokens[1].strip("[]()") if len(tokens) > 1 else ""
        if subcommand.startswith("-"):  # evfind --version, evfind -h
            assert subcommand in {"--version", "--help", "-h"}, f"{name}: `{command}`: no option {subcommand}"
            continue
        if not re.fullmatch(r"[a-z][\w-]*", subcommand):  # evfind COMMAND -h, `evfind ...`
            continue
        assert subcommand in options, f"{name}: `{command}`: evfind has no command {subcommand!r}"
        # A command with arguments is run or is a template; `evfind query --explain` names an option.
        if len(tokens) > 2 and not tokens[2].startswith("-") and not example and command not in elsewhere:
            assert is_template(command), (
                f"{name}: `{command}` is run by no test: show it as a `$ ` example with its output, "
                "or write it as a template (a placeholder in capitals: DB, REPORT.pdf, N)"
            )
        for token in tokens[2:]:
            if token == "--":
                break  # what follows is the question
            for option in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", token.split("=")[0]):
                assert option in options[subcommand], f"{name}: `{command}`: evfind {subcommand} has no option {option}"


def test_a_command_that_is_not_run_is_caught(tmp_path):
    page = "Run `evfind query sample.db \"capex 2025\" --top 3` or `evfind show DB 38 --colour`."
    found = commands(page)
    assert [is_template(command) for command, _ in found] == [False, True]
    assert "--colour" not in cli_options()["show"]


SCRIPT = re.compile(r"python (?:-X \w+ )?((?:benchmarks|scripts)/[a-z_]\w*\.py)([^\n`#]*)")  # NAME.py: a placeholder


@pytest.mark.parametrize("name", sorted(PAGES))
def test_scripts_named_exist_and_take_their_options(name):
    for script, rest in SCRIPT.findall(text_of(name)):
        path = REPO / script
        assert path.is_file(), f"{name}: {script} does not exist"
        source = path.read_text(encoding="utf-8")
        for option in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", rest):
            assert f'"{option}"' in source, f"{name}: {script} takes no option {option}"


# ---------------------------------------------------------------------------------------------
# Links


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as
    hyphens, a repeated one numbered."""
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", prose(text), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower().replace("`", "")).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if not count else f"{slug}-{count}")
    return found


def test_the_anchor_rule():
    page = "# evfind\n## `evfind query DB`\n## Files, writers and readers\n## Notes\n## Notes\n```\n## not a heading\n```\n"
    assert anchors(page) == {"evfind", "evfind-query-db", "files-writers-and-readers", "notes", "notes-1"}


def links(text: str) -> list[str]:
    return [target for target in LINK.findall(CODE_SPAN.sub("", prose(text)))
            if not re.match(r"[a-z][a-z+]*:", target)]  # http:, https:, mailto:


@pytest.mark.parametrize("name", sorted(PAGES))
def test_links_resolve(name):
    page = PAGES[name]
    for target in links(text_of(name)):
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{name}: the link {target} names no file"
        if anchor:
            assert linked.suffix == ".md", f"{name}: {target}: an anchor in a file that is not Markdown"
            assert anchor in anchors(linked.read_text(encoding="utf-8")), f"{name}: {target}: no such heading"


def test_every_page_is_linked_from_the_index():
    index = text_of("docs/README.md")
    listed = {Path(target.partition("#")[0]).name for target in links(index)}
    for path in DOCS.glob("*.md"):
        if path.name != "README.md":
            assert path.name in listed, f"docs/README.md does not list {path.name}"


# ---------------------------------------------------------------------------------------------
# Shape


def test_the_readme_is_short():
    """The README is for users: what it does, install, the commands, links; docs/ holds the rest."""
    assert len(readme().splitlines()) < 250


def test_long_pages_have_a_table_of_contents():
    """A page over 100 lines opens with a list of links to each of its `## ` sections."""
    for name in PAGES:
        text = text_of(name)
        if name == "README.md" or len(text.splitlines()) <= 100:
            continue
        sections = [heading for heading in re.findall(r"^## +(.+)$", prose(text), re.M)]
        contents = re.search(r"^\*\*Contents\*\*\n\n((?:[ \t]*- .*\n)+)", text, re.M)
        assert contents, f"{name}: no **Contents** list"
        listed = set(re.findall(r"\]\(#([^)]+)\)", contents.group(1)))
        for heading in sections:
            (slug,) = anchors(f"## {heading}\n")
            assert slug in listed, f"{name}: the contents do not list ## {heading}"


def test_the_cli_reference_covers_every_command_and_option():
    """docs/cli.md has a section for each command of the CLI, whose table of options has a row
    for every option it takes; the README's table of commands has a row for each command."""
    cli_doc = text_of("docs/cli.md")
    sections = dict(re.findall(r"^## `evfind (\w+)`\n(.*?)(?=^## |\Z)", cli_doc, re.S | re.M))
    rows = re.findall(r"^\| \[`evfind (\w+)", readme().split("## Commands")[1].split("\n## ")[0], re.M)
    for command, options in cli_options().items():
        assert command in sections, f"docs/cli.md has no section ## `evfind {command}`"
        for option in sorted(options - {"-h", "--help"}):
            if option.startswith("-"):
                assert re.search(rf"^\|[^|\n]*`{re.escape(option)}[ `]", sections[command], re.M), (
                    f"docs/cli.md: the options of evfind {command} have no row for {option}"
                )
        assert command in rows, f"the README's table of commands has no row for evfind {command}"


def test_the_storage_doc_names_every_table():
    schema = (REPO / "schema.sql").read_text(encoding="utf-8")
    tables = re.findall(r"CREATE (?:VIRTUAL )?TABLE IF NOT EXISTS (\w+)", schema)
    storage = text_of("docs/storage.md")
    assert len(tables) >= 5
    for table in tables:
        assert f"`{table}`" in storage, f"docs/storage.md does not describe the table {table}"


# ---------------------------------------------------------------------------------------------
# Python blocks


PYTHON_PAGES = [name for name in sorted(PAGES) if blocks(PAGES[name].read_text(encoding="utf-8"), "python")]


@pytest.mark.parametrize("name", PYTHON_PAGES)
def test_python_examples_run(name, tmp_path, monkeypatch, capsys):
    """The ```python blocks of a page run, in order, in one namespace, in a scratch directory: a
    block of `>>> ` lines as a doctest (its output compared, `...` standing for any text), any
    other as a script."""
    import doctest

    monkeypatch.chdir(scratch(tmp_path))
    namespace: dict = {"__name__": "__docs__"}
    for number, code in enumerate(blocks(text_of(name), "python"), 1):
        where = f"{name}, python block {number}"
        if code.startswith(">>> "):
            test = doctest.DocTestParser().get_doctest(code, namespace, where, name, 0)
            report: list[str] = []
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            result = runner.run(test, out=report.append, clear_globs=False)
            assert result.failed == 0, "".join(report)
            continue
        try:
            exec(compile(code, where, "exec"), namespace)  # noqa: S102 (the docs' own examples)
        except Exception as error:  # noqa: BLE001 (the failure names the block)
            pytest.fail(f"{where}: {type(error).__name__}: {error}")


def test_python_api_examples_exist():
    assert "docs/python-api.md" in PYTHON_PAGES and "README.md" in PYTHON_PAGES


# ---------------------------------------------------------------------------------------------
# Figures

SPAN = re.compile(r"<!-- figures: (benchmarks/[\w.]+\.txt)[^>]*-->\n(.*?)<!-- /figures -->", re.S)
# A figure: a number standing on its own (not the 25 of bm25), optionally with an x after it.
FIGURE = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)*)(?=x\b|[^\w]|$)")


def figures(text: str) -> set[str]:
    return {number.replace(",", "") for number in FIGURE.findall(text)}


def spans() -> list[tuple[str, str, str]]:
    """(page, benchmark output, text) of every figures span."""
    return [(name, output, text) for name in PAGES for output, text in SPAN.findall(text_of(name))]


def test_the_figure_pattern():
    assert figures("1.43x: 95.8 ms against 67.0 ms; 2,000 pages; bm25 FTS5 hit@5 `kill -9`") == {
        "1.43", "95.8", "67.0", "2000", "5", "9",
    }


def test_every_cited_benchmark_output_has_its_figures_checked():
    cited = set()
    for name in PAGES:
        text = re.sub(r"```.*?```", "", text_of(name), flags=re.S)  # commands name the files they write
        text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
        cited |= set(re.findall(r"benchmarks/[a-z_]\w*\.txt", text))  # NAME.txt: a placeholder
    assert cited, "the docs cite no benchmark output"
    missing = cited - {output for _, output, _ in spans()}
    assert not missing, f"mark the figures quoted from {sorted(missing)} with <!-- figures: ... -->"


def test_every_figure_quoted_is_in_the_benchmark_output_it_cites():
    assert len(spans()) >= 3
    for name, output, text in spans():
        quoted = figures(text)
        assert quoted, f"{name}: no figure between the markers of {output}"
        missing = sorted(quoted - figures((REPO / output).read_text(encoding="utf-8")), key=float)
        assert not missing, f"{name} quotes {missing} beside {output}, which does not hold them: update {name}"


def test_the_retrieval_table_is_the_benchmarks_own():
    """Row by row: the retrieval table is the ablation table's evfind and plain rows, and its
    header counts the questions of each set as the benchmark did (the prose after the table,
    between the same markers, has its figures checked by the test above)."""
    (table,) = [text for _, output, text in spans() if output == "benchmarks/retrieval.txt" and text.startswith("|")]
    table = table.strip().split("\n\n")[0]  # the table; the prose after it is checked above
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()]
    header, _, *body = rows
    output = (REPO / "benchmarks" / "retrieval.txt").read_text(encoding="utf-8")
    ablation = output.split("== Ablation")[1].splitlines()
    sets = ablation[1].split()[1:]  # method financebench seed-style sample
    measured = {cells[0]: cells[1:] for cells in (re.split(r"\s{2,}", line.strip()) for line in ablation[2:]) if cells[0]}
    names = {"evfind": "evfind", "the design's plain method": "plain"}
    assert {row[0]: row[1:] for row in body} == {label: measured[names[label]] for label in names}
    counts = [int(re.search(r"\d+", cell).group()) for cell in header[1:]]
    assert counts == [int(re.search(rf"^== {s}: .*?\nall +(\d+) ", output, re.S | re.M).group(1)) for s in sets]


def test_no_test_counts_or_times():
    """A test run's summary goes stale with every test added: no page quotes one."""
    for name in PAGES:
        assert not re.search(r"\d+ passed|\d+ skipped|passed in \d", text_of(name)), name


def test_every_module_has_a_row_in_the_layout():
    """CONTRIBUTING.md's Layout table names every module of the package with its job, so a new
    module is documented where the next engineer looks for it."""
    layout = text_of("CONTRIBUTING.md").partition("## Layout")[2]
    rows = "\n".join(line for line in layout.splitlines() if line.startswith("|"))
    named = set(re.findall(r"`(\w+\.py)`", rows))
    modules = {path.name for path in (REPO / "evfind").glob("*.py") if path.name != "__init__.py"}
    assert sorted(modules - named) == []
