"""The examples in evfind's docstrings (``>>>`` lines) run as doctests.

Each docstring with examples is one test, run in an empty temporary directory that holds
report.pdf, the 12-page test filing of tests/filing.py, and filing.htm, the inline-XBRL 10-K of
tests/html_filing.py, so an example can ingest a filing and query it. An example that cannot run here says so with ``# doctest: +SKIP`` and a reason.
"""

from __future__ import annotations

import copy
import doctest
import importlib
import pkgutil

import pytest

import evfind

from .filing import LABELS, PAGES
from .html_filing import write_filing
from .pdfgen import make_pdf

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def docstrings_with_examples() -> dict[str, doctest.DocTest]:
    """Every docstring of every evfind module that holds an example, by its dotted name."""
    found = {}
    finder = doctest.DocTestFinder()
    for info in pkgutil.walk_packages(evfind.__path__, "evfind."):
        if info.name == "evfind.__main__":  # importing it runs the CLI
            continue
        module = importlib.import_module(info.name)
        for test in finder.find(module):
            if test.examples:
                found[test.name] = test
    return found


EXAMPLES = docstrings_with_examples()


def test_the_collector_finds_the_examples():
    assert "evfind.ingest" in EXAMPLES  # the module docstring's example


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_docstring_examples(name, tmp_path, monkeypatch):
    make_pdf(tmp_path / "report.pdf", PAGES, LABELS)
    write_filing(tmp_path / "filing.htm")
    monkeypatch.chdir(tmp_path)
    test = copy.copy(EXAMPLES[name])
    test.globs = dict(test.globs)  # each run starts from the module's own names
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    result = runner.run(test, out=report.append)
    assert result.attempted == len(test.examples)
    assert result.failed == 0, "".join(report)
