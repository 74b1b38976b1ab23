"""The README shows what evfind prints today, and quotes only figures its benchmarks printed.

Outputs: the first command's, every `$ evfind query sample.db ...` example (whole, or its first
lines where it ends with "..."), the JSON example and `evfind serve`'s first lines.

Figures: every figure between `<!-- figures: benchmarks/NAME.txt -->` and `<!-- /figures -->`
appears in that committed benchmark output, so a rerun that changes them fails here until the
README follows; every benchmark output the README cites has such a span; and the retrieval
table is the retrieval benchmark's own rows. Test counts and times, which nothing regenerates,
are not quoted at all.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys

from .conftest import REPO

README = REPO / "README.md"


def readme() -> str:
    return README.read_text(encoding="utf-8")


def test_readme_query_output_is_current(cli, monkeypatch):
    match = re.search(r"```console\npip install \. && (evfind query [^\n]+)\n```\n\n```\n(.*?)\n```", readme(), re.S)
    assert match, "the README's first command and its output block were not found"
    command, shown = match.groups()
    args = shlex.split(command)[1:]
    monkeypatch.chdir(REPO)
    result = cli(*args)
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip("\n") == shown, "update the README's sample output"


def test_readme_console_examples_are_current(cli, monkeypatch):
    """Every `$ evfind query sample.db ...` example: its output whole, or up to a last "..."."""
    examples = re.findall(r"```console\n\$ (evfind query sample\.db [^\n]+)\n(.*?)\n```", readme(), re.S)
    assert len(examples) >= 2, "no example found"
    assert any(shown.endswith("\n...") for _, shown in examples)  # the partial ones are checked too
    monkeypatch.chdir(REPO)
    for command, shown in examples:
        status = 0  # an example that exits otherwise shows it: "$ echo $?" and the status
        tail = re.search(r"\n\$ echo \$\?\n(\d+)$", shown)
        if tail:
            status, shown = int(tail.group(1)), shown[: tail.start()]
        result = cli(*shlex.split(command)[1:])
        assert result.exit_code == status, result.output
        if shown.endswith("\n..."):
            head = shown[: -len("\n...")].splitlines()
            assert result.stdout.splitlines()[: len(head)] == head, f"update the README's output of: {command}"
        else:
            assert result.stdout.rstrip("\n") == shown, f"update the README's output of: {command}"


def test_readme_json_example_is_current(cli, monkeypatch):
    match = re.search(r"\(here `(evfind query sample\.db[^`]+)`\):\n\n```json\n(.*?)\n```", readme(), re.S)
    assert match, "the README's JSON example was not found"
    command, shown = match.groups()
    monkeypatch.chdir(REPO)
    result = cli(*shlex.split(" ".join(command.split()))[1:])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads(shown), f"update the README's output of: {command}"


def test_readme_serve_output_is_current(tmp_path):
    """`evfind serve sample.db` prints the two lines the README shows (on a free port here)."""
    match = re.search(r"```console\n[^\n]*\n(evfind serve sample\.db)\n```\n\n```\n(.*?)\n```", readme(), re.S)
    assert match, "the README's serve example was not found"
    command, shown = match.groups()
    shutil.copyfile(REPO / "sample.db", tmp_path / "sample.db")
    process = subprocess.Popen(
        [sys.executable, "-m", "evfind", *shlex.split(command)[1:], "--port", "0"],
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
    assert printed == shown, "update the README's output of evfind serve"


# ---------------------------------------------------------------------------------------------
# Figures

SPAN = re.compile(r"<!-- figures: (benchmarks/[\w.]+\.txt)[^>]*-->\n(.*?)<!-- /figures -->", re.S)
# A figure: a number standing on its own (not the 25 of bm25), optionally with an x after it.
FIGURE = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)*)(?=x\b|[^\w]|$)")


def figures(text: str) -> set[str]:
    return {number.replace(",", "") for number in FIGURE.findall(text)}


def spans() -> list[tuple[str, str]]:
    return SPAN.findall(readme())


def test_the_figure_pattern():
    assert figures("1.43x: 95.8 ms against 67.0 ms; 2,000 pages; bm25 FTS5 hit@5 `kill -9`") == {
        "1.43", "95.8", "67.0", "2000", "5", "9",
    }


def test_every_cited_benchmark_output_has_its_figures_checked():
    prose = re.sub(r"```.*?```", "", readme(), flags=re.S)  # commands name the files they write
    prose = re.sub(r"<!--.*?-->", "", prose, flags=re.S)
    cited = set(re.findall(r"benchmarks/\w+\.txt", prose))
    assert cited, "the README cites no benchmark output"
    assert cited <= {name for name, _ in spans()}, "mark the figures quoted from each with <!-- figures: ... -->"


def test_every_figure_the_readme_quotes_is_in_the_benchmark_output_it_cites():
    assert len(spans()) >= 3
    for name, text in spans():
        quoted = figures(text)
        assert quoted, f"no figure between the markers of {name}"
        missing = sorted(quoted - figures((REPO / name).read_text(encoding="utf-8")), key=float)
        assert not missing, f"the README quotes {missing} beside {name}, which does not hold them: update the README"


def test_the_retrieval_table_is_the_benchmarks_own():
    """Row by row: the README's table is the ablation table's evfind and plain rows, and its
    header counts the questions of each set as the benchmark did (the prose after the table,
    between the same markers, has its figures checked by the test above)."""
    (table,) = [text for name, text in spans() if name == "benchmarks/retrieval.txt"]
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
    """A test run's summary goes stale with every test added: the README does not quote one."""
    assert not re.search(r"\d+ passed|\d+ skipped|passed in \d", readme())
