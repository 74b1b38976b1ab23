"""Structure against the hand-read labels of the development filings (opt-in: --financebench DIR,
--edgar DIR): where each Item, primary statement, note and 8-K exhibit begins, as ingest stores
it, found with precision and recall of at least 0.9 per kind (benchmarks/structure.py, whose
docstring gives the matching rule; the labels are benchmarks/structure_labels.jsonl)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "structure.py"


def load():
    """benchmarks/structure.py as a module, registered under its name first: its dataclasses
    look their module up in sys.modules."""
    name = "benchmark_structure"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, BENCHMARK)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _check(results) -> None:
    bench = load()
    assert results
    for kind in bench.KINDS:
        precision, recall = bench.precision_recall(results, kind)
        assert precision is None or precision >= bench.TARGET, (kind, precision, bench.report(results))
        assert recall is None or recall >= bench.TARGET, (kind, recall, bench.report(results))


@pytest.mark.financebench
def test_the_pdfs_structure_against_its_labels(financebench, tmp_path_factory):
    bench = load()
    results = bench.measure(financebench, None, tmp_path_factory.mktemp("structure_pdf"))
    assert len(results) == 50
    _check(results)


@pytest.mark.edgar
def test_the_html_filings_structure_against_its_labels(edgar, tmp_path_factory):
    bench = load()
    results = bench.measure(None, edgar, tmp_path_factory.mktemp("structure_html"))
    assert len(results) == 18
    _check(results)
